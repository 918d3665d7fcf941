import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors } from 'jose';
import { ApiError } from '../../../src-shared/errors';

export const ACCESS_TOKEN_SECONDS = 12 * 60 * 60;
const ISSUER = 'shipdesk';

export async function signAccessToken(secret: Uint8Array, userId: string, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_SECONDS)
    // A random id: two logins never share a token, and one cannot be rebuilt from who and when
    // (things keyed by the credential, such as kept idempotent answers, rely on that).
    .setJti(randomBytes(16).toString('base64url'))
    .sign(secret);
}

export interface AccessTokenClaims {
  userId: string;
  expiresAt: Date;
}

export async function verifyAccessToken(secret: Uint8Array, token: string, now: Date): Promise<AccessTokenClaims> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      currentDate: now,
    });
    if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') throw new Error('incomplete claims');
    return { userId: payload.sub, expiresAt: new Date(payload.exp * 1000) };
  } catch (error) {
    if (error instanceof errors.JWTExpired) {
      throw new ApiError('AUTH_TOKEN_EXPIRED', 'The access token has expired; log in again');
    }
    throw new ApiError('AUTH_TOKEN_INVALID', 'The access token is not valid');
  }
}
