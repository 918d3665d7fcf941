import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort, startFakeZplPrinter, type FakeZplPrinter } from '../testing/printing';
import { PrintError, type PrintRequest } from './driver';
import { rawDriver } from './raw';

const zpl = Buffer.from('^XA^PW800^LL1200^FO50,50^A0N,40,40^FDShipdesk^FS^XZ');
const request = (target: string, overrides: Partial<PrintRequest> = {}): PrintRequest => ({
  format: 'zpl',
  size: '100X150',
  copies: 1,
  target,
  jobName: 'SHP-1-doc_1',
  printJobId: 'pjb_1',
  attempt: 1,
  ...overrides,
});

let printer: FakeZplPrinter | undefined;
afterEach(async () => {
  await printer?.close();
  printer = undefined;
});

async function failure(promise: Promise<unknown>): Promise<PrintError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PrintError);
  return error as PrintError;
}

describe('raw driver (a TCP listener standing in for a networked ZPL printer; production port 9100)', () => {
  it('sends exactly the ZPL bytes and closes the connection', async () => {
    printer = await startFakeZplPrinter();
    const received = printer.nextJob();
    await rawDriver().print(zpl, request(`127.0.0.1:${printer.port}`));
    expect((await received).equals(zpl)).toBe(true);
  });

  it('sends each copy as the label again', async () => {
    printer = await startFakeZplPrinter();
    const received = printer.nextJob();
    await rawDriver().print(zpl, request(`127.0.0.1:${printer.port}`, { copies: 3 }));
    expect((await received).equals(Buffer.concat([zpl, zpl, zpl]))).toBe(true);
  });

  it('a printer that resets the connection did not get the label: offline, not done', async () => {
    // It takes the bytes into its buffer, then refuses the job: the reset comes after our write has finished.
    const refusing = createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const { port } = refusing.address() as AddressInfo;
    try {
      const error = await failure(rawDriver().print(zpl, request(`127.0.0.1:${port}`)));
      expect(error.reason).toBe('offline');
      expect(error.message).toMatch(new RegExp(`Printer at 127\\.0\\.0\\.1:${port} (closed the connection|did not answer)`));
    } finally {
      await new Promise((resolve) => refusing.close(resolve));
    }
  });

  it('a printer that keeps its side open after reading the label is done after a short grace', async () => {
    const received: Buffer[] = [];
    const open: Socket[] = [];
    const lingering = createServer({ allowHalfOpen: true }, (socket) => {
      open.push(socket);
      socket.on('data', (chunk: Buffer) => received.push(chunk));
    });
    await new Promise<void>((resolve) => lingering.listen(0, '127.0.0.1', resolve));
    const { port } = lingering.address() as AddressInfo;
    try {
      const started = performance.now();
      await rawDriver({ closeGraceMs: 300 }).print(zpl, request(`127.0.0.1:${port}`));
      expect(performance.now() - started).toBeGreaterThanOrEqual(250);
      expect(Buffer.concat(received).equals(zpl)).toBe(true);
    } finally {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => lingering.close(resolve));
    }
  });

  it('a closed port: offline, "did not answer"', async () => {
    const port = await closedPort();
    const error = await failure(rawDriver().print(zpl, request(`127.0.0.1:${port}`)));
    expect(error.reason).toBe('offline');
    expect(error.message).toContain(`Printer at 127.0.0.1:${port} did not answer`);
  });

  it('refuses a PDF before connecting, with a clear message', async () => {
    printer = await startFakeZplPrinter();
    const pdf = Buffer.from('%PDF-1.7\n...');
    for (const attempt of [request(`127.0.0.1:${printer.port}`, { format: 'pdf' }), request(`127.0.0.1:${printer.port}`)]) {
      const error = await failure(rawDriver().print(pdf, attempt));
      expect(error.reason).toBe('wrong_format');
      expect(error.message).toContain('takes ZPL and this document is a PDF');
    }
    expect(printer.jobs).toEqual([]);
  });

  it('an unknown host name: not_found', async () => {
    const error = await failure(rawDriver().print(zpl, request('no-such-printer.invalid:9100')));
    expect(error.reason).toBe('not_found');
    expect(error.message).toContain("Printer host 'no-such-printer.invalid' is not known");
  });
});
