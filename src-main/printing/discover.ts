import type { DiscoveredPrinter } from '../../src-shared/schemas/printing';
import { runCommand } from './command';

const LPSTAT_TIMEOUT_MS = 10_000;

/**
 * The CUPS queues of this computer (`lpstat -e`) and which one is the system default (`lpstat -d`).
 * No CUPS, or a scheduler that is not running, is an empty list: there is simply nothing to offer.
 */
export async function discoverCupsPrinters(): Promise<DiscoveredPrinter[]> {
  const queues = await lpstat(['-e']);
  if (!queues) return [];
  const defaultQueue = /system default destination:\s*(\S+)/.exec((await lpstat(['-d'])) ?? '')?.[1] ?? null;
  const names = [
    ...new Set(
      queues
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  ];
  return names.map((name) => ({ name, driver: 'cups' as const, target: name, isDefault: name === defaultQueue }));
}

async function lpstat(args: string[]): Promise<string | null> {
  try {
    const result = await runCommand('lpstat', args, { timeoutMs: LPSTAT_TIMEOUT_MS });
    return result.code === 0 ? result.stdout : null;
  } catch {
    return null;
  }
}
