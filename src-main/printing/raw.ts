import { connect } from 'node:net';
import { parseRawTarget } from '../../src-shared/schemas/printing';
import { PrintError, type PrintDriver } from './driver';

export interface RawDriverOptions {
  /** How long a printer may take to accept the connection (a switched-off printer never answers). */
  connectTimeoutMs?: number;
  /** How long writing the document may take once connected. */
  sendTimeoutMs?: number;
  /** How long to wait, once everything is written, for the printer to close its side or reset. */
  closeGraceMs?: number;
}

const PDF_MAGIC = Buffer.from('%PDF-');

/**
 * Sends ZPL to a networked label printer on its raw port (9100 in production): connect, write, end.
 * Each copy is the document sent again, which is how a thermal printer counts labels.
 */
export function rawDriver(options: RawDriverOptions = {}): PrintDriver {
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const sendTimeoutMs = options.sendTimeoutMs ?? 15_000;
  const closeGraceMs = options.closeGraceMs ?? 1_000;
  return {
    async print(content, request) {
      const address = parseRawTarget(request.target);
      if (!address) throw new PrintError('not_found', `'${request.target}' is not a printer address; use host:port, e.g. 192.168.1.50:9100`);
      const where = `${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
      // A ZPL printer prints a PDF as pages of garbage characters: refuse before anything is sent.
      if (request.format !== 'zpl' || Buffer.from(content.subarray(0, PDF_MAGIC.length)).equals(PDF_MAGIC)) {
        throw new PrintError(
          'wrong_format',
          `Printer at ${where} takes ZPL and this document is a PDF; print it on a PDF printer or set the carrier's label format to ZPL`,
        );
      }
      const payload = Buffer.concat(Array.from({ length: request.copies }, () => content));
      await send(address.host, address.port, payload, where, { connectTimeoutMs, sendTimeoutMs, closeGraceMs });
    },
  };
}

function send(host: string, port: number, payload: Buffer, where: string, limits: Required<RawDriverOptions>): Promise<void> {
  const { connectTimeoutMs, sendTimeoutMs, closeGraceMs } = limits;
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    let settled = false;
    let written = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (error?: PrintError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        socket.destroy();
        reject(error);
      } else {
        resolve();
      }
    };
    const deadline = (ms: number, error: () => PrintError) => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(error()), ms);
    };
    deadline(
      connectTimeoutMs,
      () =>
        new PrintError(
          'offline',
          `Printer at ${where} did not answer within ${connectTimeoutMs / 1000} s; check that it is switched on and on the network, then retry`,
        ),
    );
    socket.once('connect', () => {
      deadline(
        sendTimeoutMs,
        () => new PrintError('offline', `Printer at ${where} stopped taking data within ${sendTimeoutMs / 1000} s; check it for paper and errors, then retry`),
      );
      // Every byte handed to the operating system is not yet every byte taken by the printer: one that
      // refuses the job resets the connection, which arrives after that. So the job is done when the
      // printer closes its side (what printers do once they have read to the end), or when a short
      // grace passes without a reset, for one that keeps its side open.
      socket.end(payload, () => {
        written = true;
        clearTimeout(timer);
        timer = setTimeout(() => finish(), closeGraceMs);
        // Past the grace the connection is not ours to keep forever.
        setTimeout(() => socket.destroy(), closeGraceMs + 10_000).unref();
      });
    });
    socket.once('close', (hadError) => {
      if (hadError) return;
      finish(written ? undefined : new PrintError('offline', `Printer at ${where} closed the connection before it had the label; check it, then retry`));
    });
    // `on`, not `once`: a late reset after the label went out must not become an uncaught error.
    socket.on('error', (error: NodeJS.ErrnoException) => finish(socketFailure(error, where, host)));
  });
}

function socketFailure(error: NodeJS.ErrnoException, where: string, host: string): PrintError {
  switch (error.code) {
    case 'ECONNREFUSED':
      return new PrintError(
        'offline',
        `Printer at ${where} did not answer (connection refused); check that it is switched on and that the port is right, then retry`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new PrintError('not_found', `Printer host '${host}' is not known on this network; check the printer's address`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ETIMEDOUT':
      return new PrintError('offline', `Printer at ${where} did not answer (${error.code}); check that it is switched on and on the network, then retry`);
    case 'ECONNRESET':
    case 'EPIPE':
      return new PrintError('offline', `Printer at ${where} closed the connection while receiving the label; check it, then retry`);
    default:
      return new PrintError('failed', `Sending to the printer at ${where} failed: ${error.message}`);
  }
}
