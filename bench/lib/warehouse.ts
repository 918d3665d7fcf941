/**
 * A throw-away Shipdesk for benchmarks: a fresh data folder, an organization on the unlimited plan
 * (so plan limits never stop a run), an API token, a sender address and a `local` carrier.
 * Set up through the domain functions, as a real first run would, not through raw SQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { carrierCreateBody } from '../../src-shared/schemas/carrier';
import { senderAddressCreateBody } from '../../src-shared/schemas/senderAddress';
import { type AppContext } from '../../src-main/app/kernel/context';
import { createAppContext } from '../../src-main/app/runtime/createApp';
import { createApiToken } from '../../src-main/domain/apiTokens/apiTokens';
import { authenticate } from '../../src-main/domain/auth/authenticate';
import { login } from '../../src-main/domain/auth/login';
import { createCarrier } from '../../src-main/domain/carriers/carriers';
import { createOrgWithOwner, setPlan } from '../../src-main/domain/orgs/orgs';
import { createSenderAddress } from '../../src-main/domain/senderAddresses/senderAddresses';
import { senderAddressBody } from '../../src-main/testing/harness';

export interface BenchOrg {
  orgId: string;
  /** An API token with write:all, as an integration would hold. */
  token: string;
  senderAddressId: string;
  carrierId: string;
}

export interface BenchWarehouse {
  app: AppContext;
  dataDir: string;
  addOrg(name: string): Promise<BenchOrg>;
  /** Closes the database and leaves the folder, for another process to open (the soak's server). */
  closeDatabase(): void;
  /** Closes the database and removes the data folder; safe to call twice. */
  dispose(): void;
}

let orgCounter = 0;

/** Statements past the slow-query line in the bench warehouses so far. */
export const slowQueries = { count: 0 };

/** The dispose functions of the warehouses still open: a bench stopped with Ctrl-C removes every (possibly large) data folder. */
const openWarehouses = new Set<() => void>();
let listening = false;

function listenForStop(): void {
  if (listening) return;
  listening = true;
  const onSignal = () => {
    for (const dispose of [...openWarehouses]) dispose();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

export function openBenchWarehouse(): BenchWarehouse {
  const dataDir = mkdtempSync(join(tmpdir(), 'shipdesk-bench-'));
  // checkResponses stays off: the product does not validate its answers, so neither does the bench.
  // The list bench reads page 50 000 of a million on purpose (~100 ms, past the 40 ms slow-query
  // line): counted and reported once by whoever asks, not printed per statement.
  const app = createAppContext({ dataDir, onSlowQuery: () => void slowQueries.count++ });
  let disposed = false;
  let closed = false;
  openWarehouses.add(dispose);
  listenForStop();

  function closeDatabase(): void {
    if (closed) return;
    closed = true;
    app.close();
  }

  function dispose(): void {
    if (disposed) return;
    disposed = true;
    openWarehouses.delete(dispose);
    try {
      closeDatabase();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  async function addOrg(name: string): Promise<BenchOrg> {
    const email = `bench${++orgCounter}-${Date.now()}@example.com`;
    const password = 'bench bench bench bench';
    const { orgId } = await createOrgWithOwner(app, { orgName: name, email, password });
    setPlan(app, orgId, 'unlimited');
    const owner = await authenticate(app, (await login(app, 'bench', email, password)).accessToken);
    const { token } = createApiToken(app, owner, orgId, { name: 'bench', scopes: ['write:all'] });
    const address = createSenderAddress(app, orgId, senderAddressCreateBody.parse(senderAddressBody()));
    const carrier = await createCarrier(
      app,
      orgId,
      carrierCreateBody.parse({ name: 'Own trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id }),
    );
    return { orgId, token, senderAddressId: address.id, carrierId: carrier.id };
  }

  return { app, dataDir, addOrg, closeDatabase, dispose };
}
