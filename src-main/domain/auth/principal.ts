import { roleScopes, type Role } from '../../../src-shared/scopes';

export interface UserSummary {
  id: string;
  name: string;
  email: string;
}

/** Who is calling, as established by authentication. */
export type Principal =
  | { kind: 'user'; user: UserSummary; roles: ReadonlyMap<string, Role>; expiresAt: Date }
  | {
      kind: 'token';
      user: UserSummary;
      tokenId: string;
      tokenPrefix: string;
      orgId: string;
      scopes: readonly string[];
      expiresAt: Date | null;
    };

/** The scopes the principal holds in an organization, or null when it has no access to it at all. */
export function scopesIn(principal: Principal, orgId: string): readonly string[] | null {
  if (principal.kind === 'token') return principal.orgId === orgId ? principal.scopes : null;
  const role = principal.roles.get(orgId);
  return role ? roleScopes[role] : null;
}
