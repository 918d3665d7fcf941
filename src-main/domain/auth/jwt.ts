import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors } from 'jose';
import { ApiError } from '../../../src-shared/errors';

export const ACCESS_TOKEN_SECONDS = 12 * 60 * 60;
const ISSUER = 'shipdesk';
const ISSUED_AT_MS = 'iat_ms';

export async function signAccessToken(secret: Uint8Array, userId: string, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  // `iat` has whole seconds; a password change must end a login made earlier in the same second too.
  return (
    new SignJWT({ [ISSUED_AT_MS]: now.getTime() })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ACCESS_TOKEN_SECONDS)
      // A random id: two logins never share a token, and one cannot be rebuilt from who and when
      // (things keyed by the credential, such as kept idempotent answers, rely on that).
      .setJti(randomBytes(16).toString('base64url'))
      .sign(secret)
  );
}

export interface AccessTokenClaims {
  userId: string;
  expiresAt: Date;
  /** In milliseconds (whole seconds of `iat` for a token made before `iat_ms` was added). */
  issuedAtMs: number;
}

export async function verifyAccessToken(secret: Uint8Array, token: string, now: Date): Promise<AccessTokenClaims> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      currentDate: now,
    });
    if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') throw new Error('incomplete claims');
    const issuedAtMs = typeof payload[ISSUED_AT_MS] === 'number' ? payload[ISSUED_AT_MS] : typeof payload.iat === 'number' ? payload.iat * 1000 : 0;
    return { userId: payload.sub, expiresAt: new Date(payload.exp * 1000), issuedAtMs };
  } catch (error) {
    if (error instanceof errors.JWTExpired) {
      throw new ApiError('AUTH_TOKEN_EXPIRED', 'The access token has expired; log in again');
    }
    throw new ApiError('AUTH_TOKEN_INVALID', 'The access token is not valid');
  }
}
