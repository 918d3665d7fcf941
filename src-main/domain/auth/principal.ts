import { grants, roleScopes, type Role, type Scope } from '../../../src-shared/scopes';
import { ApiError } from '../../../src-shared/errors';
import type { apiTokens } from '../../db/schema';

export interface UserSummary {
  id: string;
  name: string;
  email: string;
}

/** Who a credential says is calling, as established by authentication. */
export type CredentialPrincipal =
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

/**
 * Whoever runs commands where the data lives (`shipdesk member add`, `orders import`): holding the
 * machine and its data folder, they may do anything in every organization, and are no user.
 */
export interface OperatorPrincipal {
  kind: 'operator';
}

/** Who is calling: a credential's user or token, or the machine's operator (the CLI). */
export type Principal = CredentialPrincipal | OperatorPrincipal;

export const machineOperator: OperatorPrincipal = { kind: 'operator' };

/** The user a call acts for; the machine's operator is none, so user-only operations refuse it. */
export function userOf(principal: Principal): UserSummary {
  if (principal.kind === 'operator') throw new ApiError('FORBIDDEN', 'This operation acts on a signed-in user; the command line has none');
  return principal.user;
}

/** The scopes the principal holds in an organization, or null when it has no access to it at all. */
export function scopesIn(principal: Principal, orgId: string): readonly string[] | null {
  if (principal.kind === 'operator') return roleScopes.owner;
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
