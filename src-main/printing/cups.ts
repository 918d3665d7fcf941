import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { labelDimensions } from '../documents/labelSizes';
import { CommandMissingError, runCommand, type CommandResult } from './command';
import { PrintError, type PrintDriver, type PrintRequest } from './driver';

/** `lp` hands the file to the scheduler and returns; a live scheduler answers well within this. */
const SPOOLER_TIMEOUT_MS = 30_000;

const NO_CUPS = 'This computer has no CUPS print system (the "lp" command is missing); install CUPS or use a raw or file printer';

/**
 * Prints through the CUPS spooler: `lp -d <queue> -n <copies> -o media=<size> -o fit-to-page=false`.
 * The media option is what keeps a 100×150 mm label at its size instead of A4 (USERS 2). ZPL goes to
 * the queue untouched (`-o raw`), for thermal printers installed as raw CUPS queues.
 *
 * `media` alone lets CUPS snap a custom size to a named paper of the queue's PPD a few millimetres
 * away (100×192 mm became a 98.4×190.5 mm Monarch envelope, the label cut at two edges). So for a
 * custom size, when the queue's PPD takes custom page sizes, `PageSize=Custom.…` is given too, which
 * the PPD takes as it is. Only then: a PageSize the PPD does not know makes CUPS print on its
 * default paper (A4) instead, worse than the snap.
 */
export function cupsDriver(): PrintDriver {
  return {
    async print(content, request) {
      const queue = request.target;
      await assertQueueTakesJobs(queue);
      const folder = await mkdtemp(join(tmpdir(), 'shipdesk-print-'));
      try {
        const file = join(folder, request.format === 'zpl' ? 'document.zpl' : 'document.pdf');
        await writeFile(file, content);
        const customPageSize = request.format === 'pdf' && labelDimensions[request.size].cupsMedia.startsWith('Custom.') && (await takesCustomPageSize(queue));
        const result = await spool(lpArguments(request, file, { customPageSize }));
        if (result.code !== 0) throw lpFailure(queue, result);
      } finally {
        // lp has copied the file to the scheduler once it returns.
        await rm(folder, { recursive: true, force: true });
      }
    },
  };
}

export function lpArguments(request: PrintRequest, file: string, queue: { customPageSize: boolean } = { customPageSize: false }): string[] {
  const args = ['-d', request.target, '-n', String(request.copies), '-t', request.jobName];
  const media = labelDimensions[request.size].cupsMedia;
  if (request.format === 'zpl') args.push('-o', 'raw');
  else args.push('-o', `media=${media}`, ...(queue.customPageSize ? ['-o', `PageSize=${media}`] : []), '-o', 'fit-to-page=false');
  // `--` ends the options, so no file name is read as one.
  args.push('--', file);
  return args;
}

/** Whether the queue's PPD offers custom page sizes (`lpoptions -l` lists `Custom.WIDTHxHEIGHT` under PageSize). */
async function takesCustomPageSize(queue: string): Promise<boolean> {
  const result = await runCommand('lpoptions', ['-p', queue, '-l'], { timeoutMs: SPOOLER_TIMEOUT_MS }).catch(() => null);
  if (!result || result.code !== 0) return false;
  return result.stdout.split('\n').some((line) => /^PageSize\//.test(line) && /\bCustom\.WIDTHxHEIGHT\b/.test(line));
}

async function spool(args: string[]): Promise<CommandResult> {
  try {
    return await runCommand('lp', args, { timeoutMs: SPOOLER_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof CommandMissingError) throw new PrintError('no_spooler', NO_CUPS);
    throw error;
  }
}

/**
 * `lp` accepts jobs for a paused (disabled) queue and holds them, which would report a label as
 * printed that nobody will see: ask the scheduler first. Also gives the clearer "does not exist".
 */
async function assertQueueTakesJobs(queue: string): Promise<void> {
  let result: CommandResult;
  try {
    result = await runCommand('lpstat', ['-p', queue], { timeoutMs: SPOOLER_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof CommandMissingError) throw new PrintError('no_spooler', NO_CUPS);
    throw error;
  }
  if (result.code !== 0 || result.timedOut) {
    // With the scheduler down every queue looks unknown ("Invalid destination name"): say what is really wrong.
    if (!result.timedOut && !(await schedulerRunning())) throw schedulerDown();
    throw lpFailure(queue, result);
  }
  if (/\bdisabled\b/.test(result.stdout)) {
    throw new PrintError('offline', `Printer queue '${queue}' is paused on this computer; resume it (cupsenable ${queue}) and retry`);
  }
}

function lpFailure(queue: string, result: CommandResult): PrintError {
  const said = (result.stderr || result.stdout).trim().replace(/^lp(stat)?:\s*/i, '');
  if (result.timedOut) return new PrintError('offline', `The print system did not answer within ${SPOOLER_TIMEOUT_MS / 1000} s while printing to '${queue}'`);
  if (/does not exist|invalid destination|unknown destination|not found/i.test(said)) {
    return new PrintError('not_found', `Printer queue '${queue}' does not exist on this computer`);
  }
  if (/not accepting/i.test(said))
    return new PrintError('offline', `Printer queue '${queue}' is not accepting jobs; enable it (cupsaccept ${queue}) and retry`);
  if (/scheduler (is )?not (running|responding)|connection refused|unable to connect/i.test(said)) return schedulerDown();
  return new PrintError('failed', `Printing to '${queue}' failed: ${said || `lp exited with code ${String(result.code)}`}`);
}

const schedulerDown = () => new PrintError('offline', 'The CUPS print service is not running on this computer; start it and retry');

async function schedulerRunning(): Promise<boolean> {
  const result = await runCommand('lpstat', ['-r'], { timeoutMs: SPOOLER_TIMEOUT_MS }).catch(() => null);
  return result !== null && /scheduler is running/.test(result.stdout);
}
