/**
 * Whether the desktop app was started as a command (`shipdesk backup <file>`) rather than to open
 * its window. The installed app is the only Shipdesk a warehouse has, so its chores (a backup, a
 * forgotten password, a plan change) must run from it; Electron itself is never imported here.
 */

import { CLI_COMMANDS, CLI_HELP_WORDS } from './commands';

/** `--help` and `-h` show the usage wherever they stand among the switches Chromium is given. */
const HELP_SWITCHES = new Set(CLI_HELP_WORDS.filter((word) => word.startsWith('-')));

/** The first word of every command, and `help`: started with one of them, the app runs the CLI. */
const COMMAND_WORDS = new Set([...CLI_HELP_WORDS.filter((word) => !word.startsWith('-')), ...CLI_COMMANDS.map((command) => command.split(' ')[0])]);

/**
 * The command line for cli/run.ts, or null to start the app as usual. `args` are the arguments
 * after the executable. Switches belong to Chromium or the OS (`--no-sandbox`, macOS's `-psn_…`)
 * and are left out. An app that is not packaged is started as `electron [switches] <app folder>
 * [args]`: with `appFolderFirst`, the first word is that folder.
 */
export function cliInvocation(args: readonly string[], { appFolderFirst = false } = {}): string[] | null {
  let skipWord = appFolderFirst;
  for (const [i, arg] of args.entries()) {
    if (HELP_SWITCHES.has(arg)) return ['--help'];
    if (arg.startsWith('-')) continue;
    if (skipWord) {
      skipWord = false;
      continue;
    }
    return COMMAND_WORDS.has(arg) ? args.slice(i) : null;
  }
  return null;
}
