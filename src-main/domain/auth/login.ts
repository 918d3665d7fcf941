import { eq, inArray } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { Role } from '../../../src-shared/scopes';
import { orgs, users } from '../../db/schema';
import type { AppContext } from '../../app/kernel/context';
import { ACCESS_TOKEN_SECONDS, signAccessToken } from './jwt';
import { hashPassword, verifyPassword } from './passwords';
import { userRoles } from './authenticate';

/** Checked against for unknown emails, so they take as long as a wrong password (no user enumeration by timing). */
let decoyHash: Promise<string> | undefined;

export async function login(app: AppContext, client: string, email: string, password: string) {
  // Past the limit a login is refused before the password is checked, so guessing learns nothing.
  if (app.failedAuth.isOverLimit(client)) {
    throw new ApiError('RATE_LIMITED', 'Too many failed authentications from this client; wait a minute and try again');
  }
  const user = app.db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get();
  const ok = user
    ? await verifyPassword(password, user.passwordHash)
    : await verifyPassword(password, await (decoyHash ??= hashPassword('decoy password'))).then(() => false);
  if (!user || !ok) {
    throw app.failedAuth.failure(client, new ApiError('AUTH_INVALID_CREDENTIALS', 'Email or password is wrong'));
  }
  return loginAnswer(app, user);
}

/** What a login answers: a new access token for the user, and the organizations they belong to. */
export async function loginAnswer(app: AppContext, user: { id: string; name: string; email: string }) {
  const roles = userRoles(app.db, user.id);
  const orgRows = roles.size
    ? app.db
        .select({ id: orgs.id, name: orgs.name })
        .from(orgs)
        .where(inArray(orgs.id, [...roles.keys()]))
        .all()
    : [];
  return {
    accessToken: await signAccessToken(app.keys.jwtSecret, user.id, app.now()),
    tokenType: 'Bearer' as const,
    expiresIn: ACCESS_TOKEN_SECONDS,
    user: { id: user.id, name: user.name, email: user.email },
    orgs: orgRows.map((org) => ({ id: org.id, name: org.name, role: roles.get(org.id) as Role })),
  };
}
