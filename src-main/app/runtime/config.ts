import { homedir } from 'node:os';
import { join } from 'node:path';

export const DEFAULT_PORT = 4848;
export const PRODUCT_NAME = 'Shipdesk';

/** The user's data folder, the same one Electron's `app.getPath('userData')` names for Shipdesk. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.SHIPDESK_DATA_DIR) return env.SHIPDESK_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), PRODUCT_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', PRODUCT_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), PRODUCT_NAME);
}

/** One SQLite file per profile (SHIPDESK_PROFILE, default "default"). */
export function databaseFile(dataDir: string, profile = process.env.SHIPDESK_PROFILE ?? 'default'): string {
  if (!/^[\w-]{1,64}$/.test(profile)) throw new Error(`SHIPDESK_PROFILE must be letters, digits, - or _ (got "${profile}")`);
  return join(dataDir, profile === 'default' ? 'shipdesk.sqlite' : `shipdesk-${profile}.sqlite`);
}

export function portFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return parsePort(env.SHIPDESK_PORT, 'SHIPDESK_PORT');
}

/** A port from `source` (an environment variable or an option, named in the message); unset is 4848. */
export function parsePort(raw: string | undefined, source: string): number {
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(port) || port > 65535) {
    throw new Error(`${source} must be a port number from 0 to 65535 (got "${raw}")`);
  }
  return port;
}
