import { describe, expect, it } from 'vitest';
import { cliInvocation } from './invocation';
import { cliCommandOf } from './commands';

describe('cliInvocation', () => {
  it('passes a command, with everything after it, to the CLI', () => {
    expect(cliInvocation(['backup', '/tmp/copy.sqlite'])).toEqual(['backup', '/tmp/copy.sqlite']);
    expect(cliInvocation(['org', 'set-plan', 'org_1', 'pro'])).toEqual(['org', 'set-plan', 'org_1', 'pro']);
    expect(cliInvocation(['user', 'set-password', '--email', 'a@b.dk', '--password', 'x'])).toEqual([
      'user',
      'set-password',
      '--email',
      'a@b.dk',
      '--password',
      'x',
    ]);
  });

  it("leaves out Chromium's and the OS's switches before the command", () => {
    expect(cliInvocation(['--no-sandbox', 'backup', 'copy.sqlite'])).toEqual(['backup', 'copy.sqlite']);
    expect(cliInvocation(['-psn_0_12345', 'init', '--org', 'A'])).toEqual(['init', '--org', 'A']);
  });

  it('skips the app folder of an unpackaged app, wherever its switches put it', () => {
    expect(cliInvocation(['.', 'backup', 'copy.sqlite'], { appFolderFirst: true })).toEqual(['backup', 'copy.sqlite']);
    expect(cliInvocation(['--no-sandbox', '.', 'org', 'set-plan'], { appFolderFirst: true })).toEqual(['org', 'set-plan']);
    expect(cliInvocation(['--no-sandbox', '.'], { appFolderFirst: true })).toBeNull();
    // The installed app has no app folder argument: "." there is a stray word.
    expect(cliInvocation(['.', 'backup', 'copy.sqlite'])).toBeNull();
  });

  it('shows the help for --help, -h and help', () => {
    expect(cliInvocation(['--help'])).toEqual(['--help']);
    expect(cliInvocation(['--no-sandbox', '-h'])).toEqual(['--help']);
    expect(cliInvocation(['help'])).toEqual(['help']);
  });

  it('opens the app for no arguments, switches only, or a word that is no command', () => {
    expect(cliInvocation([])).toBeNull();
    expect(cliInvocation(['--no-sandbox', '--enable-logging'])).toBeNull();
    // A stray word (a file dropped on the icon) opens the app rather than failing as a command.
    expect(cliInvocation(['labels.pdf'])).toBeNull();
  });
});

describe('cliCommandOf', () => {
  it('finds a command by all its words, and nothing else', () => {
    expect(cliCommandOf(['org', 'set-plan', 'org_1', 'pro'])).toBe('org set-plan');
    expect(cliCommandOf(['backup', 'copy.sqlite'])).toBe('backup');
    expect(cliCommandOf(['org', 'delete', 'org_1'])).toBeNull();
    expect(cliCommandOf(['org'])).toBeNull();
    expect(cliCommandOf([])).toBeNull();
  });
});
