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
    return CLI_COMMAND_WORDS.includes(arg) ? args.slice(i) : null;
  }
  return null;
}
