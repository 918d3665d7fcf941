import { createServer, type Server, type Socket } from 'node:net';
import type { TestOrg, TestServer } from './harness';

/**
 * A stand-in for a networked ZPL label printer: a TCP listener on 127.0.0.1 (a random port unless one
 * is asked for; production printers listen on 9100) that keeps what each connection sent.
 */
export interface FakeZplPrinter {
  port: number;
  /** What each finished connection sent, in order. */
  jobs: Buffer[];
  /** Resolves with the next finished connection's bytes. */
  nextJob(): Promise<Buffer>;
  close(): Promise<void>;
}

export async function startFakeZplPrinter(port = 0): Promise<FakeZplPrinter> {
  const jobs: Buffer[] = [];
  const waiting: ((job: Buffer) => void)[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      const job = Buffer.concat(chunks);
      jobs.push(job);
      waiting.shift()?.(job);
      socket.end();
    });
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return {
    port: address.port,
    jobs,
    nextJob: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (taken from the OS, then released). */
export async function closedPort(): Promise<number> {
  const probe = await startFakeZplPrinter();
  await probe.close();
  return probe.port;
}

/** Creates a printer through the API and returns its body. */
export async function createPrinter(t: TestServer, body: Record<string, unknown>, org: TestOrg = t.org) {
  const res = await t.request('POST', `/orgs/${org.orgId}/printers`, { token: org.token, body: { labelSize: '100X150', ...body } });
  if (res.status !== 201) throw new Error(`printer: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; name: string; driver: string; target: string; format: string; isDefault: boolean };
}

/** Creates a shipment for `carrierId` and sends it; answers the dispatched shipment. */
export async function sentShipment(t: TestServer, body: Record<string, unknown>, org: TestOrg = t.org) {
  const created = await t.request('POST', `/orgs/${org.orgId}/shipments`, { token: org.token, body });
  if (created.status !== 201) throw new Error(`create: ${JSON.stringify(created.body)}`);
  const sent = await t.request('POST', `/orgs/${org.orgId}/shipments/${created.body.id}/send`, { token: org.token });
  if (sent.status !== 200) throw new Error(`send: ${JSON.stringify(sent.body)}`);
  return sent.body;
}
