import { spawn } from 'node:child_process';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Thrown when the program itself is not installed (ENOENT), so callers can say "CUPS is missing". */
export class CommandMissingError extends Error {
  override readonly name = 'CommandMissingError';
  constructor(readonly command: string) {
    super(`${command} is not installed`);
  }
}

/**
 * Runs a program with an argument list — never a shell string, so a queue or file name cannot inject
 * anything. English messages (LC_ALL=C) keep the spooler's answers recognisable.
 */
export function runCommand(command: string, args: readonly string[], options: { timeoutMs: number }): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
      windowsHide: true,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new CommandMissingError(command) : error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}
