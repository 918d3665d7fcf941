import type { IncomingMessage } from 'node:http';

/**
 * What the local carrier fakes (gls, dhlExpress, ups) share: their fault switches and reading a
 * request. Test support only: no adapter imports it.
 */

/** Faults queued per operation (or `any`), each good for `times` calls, taken in the order added. */
export function faultQueue<Operation extends string, Fault>() {
  const faults: { operation: Operation | 'any'; fault: Fault; times: number }[] = [];
  return {
    add: (operation: Operation | 'any', fault: Fault, times = 1): void => void faults.push({ operation, fault, times }),
    clear: (): void => void faults.splice(0),
    /** The fault for this call, if one is queued; it is used up after its `times`. */
    take(operation: Operation): Fault | null {
      const index = faults.findIndex((entry) => entry.operation === operation || entry.operation === 'any');
      if (index < 0) return null;
      const entry = faults[index]!;
      if (--entry.times <= 0) faults.splice(index, 1);
      return entry.fault;
    },
  };
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The body as JSON, or undefined when it is not JSON (the fake then answers as the carrier would). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}
