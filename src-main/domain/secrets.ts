import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ApiError } from '../../src-shared/errors';

/**
 * Secrets that must be used again (webhook signing secrets, carrier and storefront passwords) cannot
 * be hashed; they are sealed with AES-256-GCM under the installation key, so a copied database file
 * alone does not reveal them. Login passwords and API tokens are hashed instead (see auth/).
 */
const VERSION = 'v1';

export function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
}

/**
 * A sealed value that does not open was sealed under another key: the database was restored or
 * copied without its `installation-keys.json`, and a new key was made. GCM's own "unable to
 * authenticate data" says none of that, nor what to do.
 */
export const FOREIGN_KEY_MESSAGE =
  "A stored secret cannot be opened with this installation's key: the database was restored or copied without the installation-keys.json it was written with. " +
  'Put that file back in the data folder and restart Shipdesk, or enter the secret again (a webhook: create it again).';

export function unseal(key: Buffer, sealed: string): string {
  const [version, iv, tag, data] = sealed.split(':');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('Not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new ApiError('INTERNAL_ERROR', FOREIGN_KEY_MESSAGE);
  }
}

/** The opened value, or null when it was sealed under another installation's key. */
function unsealOrNull(key: Buffer, sealed: string): string | null {
  try {
    return unseal(key, sealed);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(`${VERSION}:`) && value.split(':').length === 4;
}

const MASK = '••••';

/** What a read shows of a secret: enough to recognise a long one, never enough to use it. */
export function maskSecret(plain: string): string {
  return plain.length < 12 ? MASK : `${MASK}${plain.slice(-4)}`;
}

/**
 * Seals the listed keys of a config object before it is stored. A value equal to its own mask
 * (sent back unchanged from a read) keeps the stored secret.
 */
export function sealConfig(
  key: Buffer,
  config: Record<string, unknown>,
  secretKeys: readonly string[],
  previous: Record<string, unknown> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  for (const name of secretKeys) {
    const value = out[name];
    if (typeof value !== 'string' || value === '') continue;
    const before = previous[name];
    // A stored secret that no longer opens (see FOREIGN_KEY_MESSAGE) can still be replaced by a new one.
    const opened = isSealed(before) ? unsealOrNull(key, before) : null;
    if (opened !== null && value === maskSecret(opened)) out[name] = before;
    else if (value.startsWith(MASK)) {
      // A stale mask must not be stored as if it were the secret: the failure would surface much later.
      throw new ApiError('VALIDATION_FAILED', `config.${name} is a masked value; send the secret itself`, {
        details: [{ path: `body.config.${name}`, message: 'Masked value does not match the stored secret' }],
      });
    } else out[name] = seal(key, value);
  }
  return out;
}

/**
 * The stored config as reads show it: secrets masked. A secret that no longer opens shows as the
 * bare mask, so lists and forms keep working and the secret can be entered again; using it says why.
 */
export function maskConfig(key: Buffer, stored: Record<string, unknown>, secretKeys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...stored };
  for (const name of secretKeys) {
    const value = out[name];
    if (isSealed(value)) out[name] = maskSecret(unsealOrNull(key, value) ?? '');
  }
  return out;
}

/** The stored config with secrets opened, for the carrier adapter or storefront client only. */
export function openConfig(key: Buffer, stored: Record<string, unknown>, secretKeys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...stored };
  for (const name of secretKeys) {
    const value = out[name];
    if (isSealed(value)) out[name] = unseal(key, value);
  }
  return out;
}

/**
 * A config as typed in a form, with its secrets in the clear for one carrier call (a test, an option
 * list): a secret sent back masked, as a read showed it, is the stored one; without a stored config
 * (nothing saved yet) a masked value is refused, since it cannot stand for anything.
 */
export function openEditedConfig(
  key: Buffer,
  config: Record<string, unknown>,
  secretKeys: readonly string[],
  previous: Record<string, unknown> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  for (const name of secretKeys) {
    const value = out[name];
    if (typeof value !== 'string' || !value.startsWith(MASK)) continue;
    const before = previous[name];
    const opened = isSealed(before) ? unsealOrNull(key, before) : null;
    if (opened !== null && value === maskSecret(opened)) out[name] = opened;
    else {
      throw new ApiError('VALIDATION_FAILED', `config.${name} is a masked value; send the secret itself`, {
        details: [{ path: `body.config.${name}`, message: 'Masked value does not match a stored secret: type the secret itself' }],
      });
    }
  }
  return out;
}
