/**
 * Whether the desktop app was started as a command (`shipdesk backup <file>`) rather than to open
 * its window. The installed app is the only Shipdesk a warehouse has, so its chores (a backup, a
 * forgotten password, a plan change) must run from it; Electron itself is never imported here.
 */

/** The first word of every command cli/run.ts knows; its usage text lists the whole commands. */
export const CLI_COMMAND_WORDS: readonly string[] = ['init', 'org', 'member', 'user', 'orders', 'backup', 'restore', 'help'];

const HELP_SWITCHES = new Set(['--help', '-h']);

/**
 * The command line for cli/run.ts, or null to start the app as usual. `args` are the arguments
 * after the executable (and after the app folder when run as `electron .`). Switches before the
 * command belong to Chromium or the OS (`--no-sandbox`, macOS's `-psn_…`) and are left out.
 */
export function cliInvocation(args: readonly string[]): string[] | null {
  for (const [i, arg] of args.entries()) {
    if (HELP_SWITCHES.has(arg)) return ['--help'];
    if (arg.startsWith('-')) continue;
    return CLI_COMMAND_WORDS.includes(arg) ? args.slice(i) : null;
  }
  return null;
}
