import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { ApiError } from '../../../src-shared/errors';
import type { PageQuery } from '../../../src-shared/schemas/common';
import { TOKEN_PREFIX, type ApiToken, type apiTokenCreateBody } from '../../../src-shared/schemas/apiToken';
import { grants, type Scope } from '../../../src-shared/scopes';
import { apiTokens } from '../../db/schema';
import { newId } from '../../db/ids';
import { inWriteTransaction, type ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { authenticate, findUser, hashApiToken } from '../auth/authenticate';
import { scopesIn, userOf, type Principal } from '../auth/principal';
import { assertWithinLimit } from '../orgs/plans';
import { paginate } from '../pagination';

type Row = typeof apiTokens.$inferSelect;
const DAY_MS = 24 * 60 * 60 * 1000;

export function toApiToken(row: Row): ApiToken {
  return {
    id: row.id,
    name: row.name,
    tokenPrefix: row.tokenPrefix,
    scopes: row.scopes,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
  };
}

/** `shpd_` + 40 url-safe characters (240 random bits); `tokenPrefix` is its first 12 characters. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(30).toString('base64url');
}

const live = (orgId: string) => and(eq(apiTokens.orgId, orgId), isNull(apiTokens.revokedAt));

function findTokenRow(db: ReadDb, orgId: string, tokenId: string): Row {
  const row = db
    .select()
    .from(apiTokens)
    .where(and(live(orgId), eq(apiTokens.id, tokenId)))
    .get();
  if (!row) throw new ApiError('TOKEN_NOT_FOUND', `API token ${tokenId} does not exist in this organization`);
  return row;
}

export function createApiToken(app: AppContext, creator: Principal, orgId: string, input: z.output<typeof apiTokenCreateBody>): ApiToken & { token: string } {
  const held = scopesIn(creator, orgId) ?? [];
  // No escalation: a token can only carry scopes its creator holds.
  const beyond = input.scopes.filter((scope: Scope) => !grants(held, scope));
  if (beyond.length) {
    throw new ApiError('FORBIDDEN', `You cannot grant scopes you do not hold: ${beyond.join(', ')}`);
  }
  const now = app.now();
  const token = generateToken();
  return inWriteTransaction(app.db, (tx) => {
    assertWithinLimit(tx, orgId, 'apiTokens', now.toISOString());
    const row: Row = {
      id: newId('token'),
      orgId,
      name: input.name,
      tokenHash: hashApiToken(token),
      tokenPrefix: token.slice(0, 12),
      scopes: [...new Set(input.scopes)],
      // A token belongs to the user who made it (it acts within their role), so the operator makes none.
      createdBy: userOf(creator).id,
      lastUsedAt: null,
      expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS).toISOString() : null,
      revokedAt: null,
      createdAt: now.toISOString(),
    };
    tx.insert(apiTokens).values(row).run();
    return { ...toApiToken(row), token };
  });
}

export function listApiTokens(app: AppContext, orgId: string, query: PageQuery) {
  const total = app.db.select({ n: count() }).from(apiTokens).where(live(orgId)).get()?.n ?? 0;
  return paginate(query, total, (limit, offset) =>
    app.db.select().from(apiTokens).where(live(orgId)).orderBy(desc(apiTokens.createdAt), desc(apiTokens.id)).limit(limit).offset(offset).all().map(toApiToken),
  );
}

export function getApiToken(app: AppContext, orgId: string, tokenId: string) {
  const row = findTokenRow(app.db, orgId, tokenId);
  const creator = findUser(app.db, row.createdBy) ?? { id: row.createdBy, name: '', email: '' };
  return { ...toApiToken(row), createdBy: creator };
}

export function renameApiToken(app: AppContext, orgId: string, tokenId: string, name: string): ApiToken {
  return inWriteTransaction(app.db, (tx) => {
    const row = findTokenRow(tx, orgId, tokenId);
    tx.update(apiTokens).set({ name }).where(eq(apiTokens.id, tokenId)).run();
    return toApiToken({ ...row, name });
  });
}

/** Revocation is immediate: the next request with the token gets 401. */
export function revokeApiToken(app: AppContext, orgId: string, tokenId: string): { message: string } {
  return inWriteTransaction(app.db, (tx) => {
    findTokenRow(tx, orgId, tokenId);
    tx.update(apiTokens).set({ revokedAt: app.now().toISOString() }).where(eq(apiTokens.id, tokenId)).run();
    return { message: `API token ${tokenId} revoked` };
  });
}

/** Describes a credential that authenticated; invalid ones never get here (they are 401). */
export async function describeCredential(app: AppContext, credential: string) {
  const principal = await authenticate(app, credential);
  if (principal.kind === 'token') {
    return {
      valid: true as const,
      type: 'api_token' as const,
      tokenId: principal.tokenId,
      tokenPrefix: principal.tokenPrefix,
      orgId: principal.orgId,
      scopes: [...principal.scopes],
      expiresAt: principal.expiresAt?.toISOString() ?? null,
      user: principal.user,
    };
  }
  return {
    valid: true as const,
    type: 'jwt' as const,
    tokenId: null,
    tokenPrefix: null,
    orgId: null,
    scopes: [],
    expiresAt: principal.expiresAt.toISOString(),
    user: principal.user,
  };
}
