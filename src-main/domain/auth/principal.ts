import { grants, roleScopes, type Role, type Scope } from '../../../src-shared/scopes';
import type { apiTokens } from '../../db/schema';

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

/**
 * What two lists of scopes both grant, as a list `grants` understands: `write:X` and `read:all`
 * share `read:X`. An API token acts with this of its own scopes and its creator's current role, so a
 * token never outlives a demotion (docs/decisions.md "Team members").
 */
export function commonScopes(a: readonly string[], b: readonly string[]): string[] {
  const common = new Set<string>();
  const keep = (from: readonly string[], other: readonly string[]) => {
    for (const scope of from) {
      if (grants(other, scope as Scope)) common.add(scope);
      else if (scope.startsWith('write:') && grants(other, `read:${scope.slice('write:'.length)}` as Scope)) {
        common.add(`read:${scope.slice('write:'.length)}`);
      }
    }
  };
  keep(a, b);
  keep(b, a);
  return [...common];
}

/** A live token and the user it acts for, as kept between requests (see createTokenCache). */
export interface TokenAuth {
  row: typeof apiTokens.$inferSelect;
  user: UserSummary;
  /**
   * What the token may do: its scopes as far as its creator's current role in the token's
   * organization also grants them; null when the creator is no longer a member there.
   */
  scopes: readonly string[] | null;
}
