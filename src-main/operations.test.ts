/**
 * One walk over the operation table: every entry must be served by every door. Adding an operation
 * without its route, IPC handler, OpenAPI path, scope or handler fails here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../src-shared/operations';
import { ipcChannelOf, orgParamOf, scopeOf, type AnyOperation } from '../src-shared/operation';
import { errorStatus } from '../src-shared/errors';
import { type AppContext } from './app/kernel/context';
import { createAppContext } from './app/runtime/createApp';
import { buildServer, fastifyPath } from './http/server';
import { buildOpenApiDocument } from './http/openapi';
import { registerIpcHandlers, type IpcMainLike } from './ipc/register';
import { handlers } from './domain/handlers';

const table = operations as readonly AnyOperation[];
let dir: string;
let app: AppContext;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-walk-'));
  app = createAppContext({ dataDir: dir });
});
afterAll(() => {
  app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the operation table', () => {
  it('has unique ids of the form resource.verb and unique method + path pairs', () => {
    expect(new Set(table.map((op) => op.id)).size).toBe(table.length);
    for (const op of table) expect(op.id, op.id).toMatch(/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/);
    expect(new Set(table.map((op) => `${op.method} ${op.path}`)).size).toBe(table.length);
  });

  it('gives every entry an HTTP route, an IPC handler, an OpenAPI path, a scope and a handler', async () => {
    const server = buildServer(app);
    await server.ready();
    const channels = new Set<string>();
    const fakeIpcMain: IpcMainLike = { handle: (channel) => void channels.add(channel) };
    registerIpcHandlers(fakeIpcMain, app, { isTrustedSender: () => true });
    const paths = buildOpenApiDocument().paths as Record<string, Record<string, unknown>>;

    for (const op of table) {
      expect(server.hasRoute({ method: op.method, url: fastifyPath(op.path) }), `${op.id}: HTTP route`).toBe(true);
      expect(channels.has(ipcChannelOf(op.id)), `${op.id}: IPC handler`).toBe(true);
      expect(paths[op.path]?.[op.method.toLowerCase()], `${op.id}: OpenAPI path`).toBeDefined();
      expect(typeof (handlers as Record<string, unknown>)[op.id], `${op.id}: handler`).toBe('function');
      // A scope, or a deliberate exception: public operations check what they need themselves.
      if (op.auth === 'credential' && op.resource === null) {
        // Acts on the caller's own user, in no organization: any credential of theirs will do.
        expect(['auth.changePassword'], `${op.id}: own user`).toContain(op.id);
        expect(orgParamOf(op), `${op.id}: no organization in the path`).toBeNull();
      } else if (op.auth === 'credential') {
        expect(scopeOf(op), `${op.id}: scope`).not.toBeNull();
        // The scope is checked against the organization in the path, so one must be there.
        expect(orgParamOf(op), `${op.id}: organization in the path`).not.toBeNull();
      } else {
        expect(['system.health', 'auth.login', 'apiTokens.verify', 'setup.status', 'setup.create', 'profile.get'], `${op.id}: public`).toContain(op.id);
      }
    }
    expect(Object.keys(handlers).sort()).toEqual(table.map((op) => op.id).sort());
    await server.close();
  });

  it('maps every error code to an HTTP status in one place', () => {
    for (const [code, status] of Object.entries(errorStatus)) expect([400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503], code).toContain(status);
  });
});
