import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { and, eq, getTableColumns, getTableName, sql } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import { TOKEN_PREFIX } from '../../../src-shared/schemas/apiToken';
import { roleScopes, type Role } from '../../../src-shared/scopes';
import { apiTokens, orgMembers, users } from '../../db/schema';
import type { AppContext } from '../../app/kernel/context';
import type { ReadDb } from '../../db/tx';
import type { Db } from '../../db/types';
import { prepared } from '../../db/prepared';
import { CommittedReadCache, type ForeignCommits, type WatchedTable } from '../../db/readCache';
import { verifyAccessToken } from './jwt';
import { commonScopes, type CredentialPrincipal, type TokenAuth, type UserSummary } from './principal';

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** lastUsedAt is written at most once a minute per token, so reads stay reads. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Parses `Authorization: Bearer <credential>`; the scheme is case-insensitive (RFC 7235). */
export function bearerCredential(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ApiError('UNAUTHORIZED', "The Authorization header must be 'Bearer <token>'");
  return match[1];
}

// Every authenticated request runs these: prepared once per connection (see db/prepared.ts).
const userById = (root: Db) =>
  root
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare();
const loginUser = (root: Db) =>
  root
    .select({ id: users.id, name: users.name, email: users.email, passwordChangedAt: users.passwordChangedAt })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare();
const rolesOfUser = (root: Db) =>
  root
    .select({ orgId: orgMembers.orgId, role: orgMembers.role })
    .from(orgMembers)
    .where(eq(orgMembers.userId, sql.placeholder('userId')))
    .prepare();
const roleOfUser = (root: Db) =>
  root
    .select({ role: orgMembers.role })
    .from(orgMembers)
    .where(and(eq(orgMembers.orgId, sql.placeholder('orgId')), eq(orgMembers.userId, sql.placeholder('userId'))))
    .prepare();
const tokenByHash = (root: Db) =>
  root
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, sql.placeholder('hash')))
    .prepare();
const touchToken = (root: Db) =>
  root
    .update(apiTokens)
    .set({ lastUsedAt: sql`${sql.placeholder('lastUsedAt')}` })
    .where(eq(apiTokens.id, sql.placeholder('id')))
    .prepare();

export function findUser(db: ReadDb, userId: string): UserSummary | undefined {
  return prepared(db, 'auth.userById', userById).get({ userId });
}

export function userRoles(db: ReadDb, userId: string): Map<string, Role> {
  const rows = prepared(db, 'auth.rolesOfUser', rolesOfUser).all({ userId });
  return new Map(rows.map((row) => [row.orgId, row.role as Role]));
}

/** The user's role in one organization, or undefined when they are not a member. */
export function roleIn(db: ReadDb, orgId: string, userId: string): Role | undefined {
  return prepared(db, 'auth.roleOfUser', roleOfUser).get({ orgId, userId })?.role as Role | undefined;
}

/** Turns a credential (JWT or `shpd_…` API token) into a principal, or throws a 401 ApiError. */
export async function authenticate(app: AppContext, credential: string): Promise<CredentialPrincipal> {
  const now = app.now();
  if (credential.startsWith(TOKEN_PREFIX)) return authenticateApiToken(app, credential, now);
  const claims = await verifyAccessToken(app.keys.jwtSecret, credential, now);
  const row = prepared(app.db, 'auth.loginUser', loginUser).get({ userId: claims.userId });
  if (!row) throw new ApiError('AUTH_TOKEN_INVALID', 'The access token belongs to a user that no longer exists');
  const { passwordChangedAt, ...user } = row;
  // A password change ends the logins made before it.
  if (passwordChangedAt !== null && claims.issuedAtMs < Date.parse(passwordChangedAt)) {
    throw new ApiError('AUTH_TOKEN_INVALID', 'The password was changed after this login; log in again');
  }
  return { kind: 'user', user, roles: userRoles(app.db, user.id), expiresAt: claims.expiresAt };
}

/**
 * Valid tokens by hash, so a script's requests do not each read three tables to learn who they are.
 * Revoking, expiring, re-scoping or deleting a token, changing its user, or any change of
 * membership or role drops the entry at once (db/readCache.ts); only `last_used_at`, which this
 * module writes itself, is not watched.
 */
export function createTokenCache(client: Database.Database, foreign: ForeignCommits): CommittedReadCache<TokenAuth> {
  const tokenColumns = Object.values(getTableColumns(apiTokens))
    .filter((column) => column !== apiTokens.lastUsedAt)
    .map((column) => column.name);
  const watched: WatchedTable[] = [
    { table: getTableName(apiTokens), key: `ROW."${apiTokens.tokenHash.name}"`, columns: tokenColumns },
    { table: getTableName(users), key: null },
    // A member removed or given another role: rare, so every entry goes.
    { table: getTableName(orgMembers), key: null },
  ];
  return new CommittedReadCache<TokenAuth>(client, 'token_auth', watched, 10_000, foreign);
}

function findToken(app: AppContext, hash: string): TokenAuth | undefined {
  const kept = app.tokens.get(hash, '');
  if (kept) return kept;
  const row = prepared(app.db, 'auth.tokenByHash', tokenByHash).get({ hash });
  if (!row) return undefined;
  const user = findUser(app.db, row.createdBy);
  if (!user) throw new ApiError('AUTH_TOKEN_INVALID', 'The API token belongs to a user that no longer exists');
  const role = roleIn(app.db, row.orgId, row.createdBy);
  const found = { row, user, scopes: role ? commonScopes(row.scopes, roleScopes[role]) : null };
  app.tokens.set(hash, '', found);
  return found;
}

function authenticateApiToken(app: AppContext, credential: string, now: Date): CredentialPrincipal {
  const found = findToken(app, hashApiToken(credential));
  if (!found || found.row.revokedAt) throw new ApiError('AUTH_TOKEN_INVALID', 'The API token is not valid or has been revoked');
  const { row, user, scopes } = found;
  if (row.expiresAt && row.expiresAt <= now.toISOString()) {
    throw new ApiError('AUTH_TOKEN_EXPIRED', `The API token ${row.tokenPrefix}… expired at ${row.expiresAt}`);
  }
  // Removing a member revokes their tokens there; this also covers a membership deleted by hand.
  if (!scopes) throw new ApiError('AUTH_TOKEN_INVALID', 'The API token was made by a user who is no longer a member of its organization');
  if (!row.lastUsedAt || now.getTime() - Date.parse(row.lastUsedAt) >= LAST_USED_RESOLUTION_MS) {
    row.lastUsedAt = now.toISOString();
    prepared(app.db, 'auth.touchToken', touchToken).run({ id: row.id, lastUsedAt: row.lastUsedAt });
  }
  return {
    kind: 'token',
    user,
    tokenId: row.id,
    tokenPrefix: row.tokenPrefix,
    orgId: row.orgId,
    scopes,
    expiresAt: row.expiresAt ? new Date(row.expiresAt) : null,
  };
}
