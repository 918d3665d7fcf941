import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateFolder } from '../../platform/privateFolder';
import type { InstallationKeys } from '../kernel/context';

/** Keys are generated once per installation and kept, readable by the owner only, in the data folder. */
export function loadInstallationKeys(dataDir: string): InstallationKeys {
  const file = join(dataDir, 'installation-keys.json');
  if (!existsSync(file)) {
    ensurePrivateFolder(dataDir);
    const fresh = { jwtSecret: randomBytes(32).toString('base64'), sealKey: randomBytes(32).toString('base64') };
    writeFileSync(file, JSON.stringify(fresh), { mode: 0o600, flag: 'wx' });
  }
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { jwtSecret: string; sealKey: string };
  return {
    jwtSecret: new Uint8Array(Buffer.from(stored.jwtSecret, 'base64')),
    sealKey: Buffer.from(stored.sealKey, 'base64'),
  };
}
