/**
 * `shipdesk <command>` without the desktop app: `npm run --silent cli -- <command>` from source, or
 * `node out/main/cli.js <command>` from a build (the headless server's machines). The commands are
 * in cli/run.ts; the desktop app runs the same ones when it is started with a command.
 */
import { runCli } from './cli/run';

process.exitCode = await runCli(process.argv.slice(2));
