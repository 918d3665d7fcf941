/**
 * The commands `shipdesk` knows, by their words. The one list both the command line (cli/run.ts,
 * which refuses anything else) and the desktop app (cli/invocation.ts, which runs a command instead
 * of opening its window) go by. Kept free of imports so the app's start-up can read it cheaply.
 */
export const CLI_COMMANDS = ['init', 'org set-plan', 'org set-add-on', 'member add', 'user set-password', 'orders import', 'backup', 'restore'] as const;

/** What asks for the usage text instead of a command: `shipdesk --help`, `-h` or `help`. */
export const CLI_HELP_WORDS: readonly string[] = ['--help', '-h', 'help'];

export type CliCommand = (typeof CLI_COMMANDS)[number];

/** The command `argv` starts with, or null when it starts with none of them. */
export function cliCommandOf(argv: readonly string[]): CliCommand | null {
  return CLI_COMMANDS.find((command) => command.split(' ').every((word, i) => argv[i] === word)) ?? null;
}

/** How the commands are named in an error: "init, org set-plan, …, backup and restore". */
export function cliCommandList(): string {
  return `${CLI_COMMANDS.slice(0, -1).join(', ')} and ${CLI_COMMANDS.at(-1)}`;
}
