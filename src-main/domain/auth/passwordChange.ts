import { eq } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { PasswordChangeInput } from '../../../src-shared/schemas/system';
import { users } from '../../db/schema';
import { inWriteTransaction, type ReadDb, type WriteTx } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { loginAnswer } from './login';
import { hashPassword, verifyPassword } from './passwords';
import { userOf, type Principal } from './principal';

/**
 * Stores a new password hash and the time of the change, which ends every login (JWT) made before
 * it (authenticate.ts). API tokens stay: they are separate credentials, revoked on their own.
 */
export function storePassword(tx: WriteTx, userId: string, passwordHash: string, now: Date): void {
  tx.update(users).set({ passwordHash, passwordChangedAt: now.toISOString() }).where(eq(users.id, userId)).run();
}

/**
 * A user changes their own password (`POST /auth/password`). The current password is asked for, so
 * a station left signed in cannot be used to lock its user out; a wrong one counts as a failed
 * authentication of the client (decisions §2: 429 after 10 a minute). The answer is a new login,
 * because the one the request came with has just ended.
 */
export async function changeOwnPassword(app: AppContext, client: string, principal: Principal, input: PasswordChangeInput) {
  if (app.failedAuth.isOverLimit(client)) {
    throw new ApiError('RATE_LIMITED', 'Too many failed authentications from this client; wait a minute and try again');
  }
  const user = userOf(principal);
  const userId = user.id;
  const stored = app.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).get();
  if (!stored) throw new ApiError('AUTH_TOKEN_INVALID', 'This credential belongs to a user that no longer exists');
  if (!(await verifyPassword(input.currentPassword, stored.passwordHash))) {
    throw app.failedAuth.failure(
      client,
      new ApiError('VALIDATION_FAILED', 'Invalid body.currentPassword: this is not your current password', {
        details: [{ path: 'body.currentPassword', message: 'This is not your current password' }],
      }),
    );
  }
  if (input.newPassword === input.currentPassword) {
    throw new ApiError('VALIDATION_FAILED', 'Invalid body.newPassword: it is the current password', {
      details: [{ path: 'body.newPassword', message: 'Choose a password other than the current one' }],
    });
  }
  const passwordHash = await hashPassword(input.newPassword);
  inWriteTransaction(app.db, (tx) => storePassword(tx, userId, passwordHash, app.now()));
  return loginAnswer(app, user);
}

/**
 * `shipdesk user set-password`: whoever holds the machine and its data folder sets any user's
 * password, the way back in for an owner who forgot theirs (no email goes out from a local app).
 */
export async function setPasswordByEmail(app: AppContext, email: string, password: string): Promise<{ userId: string; email: string }> {
  const address = email.trim().toLowerCase();
  const byEmail = (db: ReadDb) => db.select({ id: users.id }).from(users).where(eq(users.email, address)).get();
  if (!byEmail(app.db)) throw new ApiError('NOT_FOUND', `No user has the email ${address} on this installation`);
  const passwordHash = await hashPassword(password);
  const userId = inWriteTransaction(app.db, (tx) => {
    const user = byEmail(tx);
    if (!user) throw new ApiError('NOT_FOUND', `No user has the email ${address} on this installation`);
    storePassword(tx, user.id, passwordHash, app.now());
    return user.id;
  });
  return { userId, email: address };
}
