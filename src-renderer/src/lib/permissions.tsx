import type { ReactNode } from 'react';
import { grants, roleScopes, type Resource, type Role } from '../../../src-shared/scopes';
import { useSession } from './session';

/** The signed-in user's role in the organization on screen. */
export function useRole(): Role | null {
  const login = useSession((state) => state.login);
  const orgId = useSession((state) => state.orgId);
  return login?.orgs.find((org) => org.id === orgId)?.role ?? null;
}

/**
 * Whether the signed-in user's role may change this resource (decisions §3's role scopes). Only hides
 * buttons: the server still checks the scope and answers FORBIDDEN, which the forms show in plain words.
 */
export function useCanWrite(resource: Resource): boolean {
  const role = useRole();
  return role !== null && grants(roleScopes[role], `write:${resource}`);
}

/** Says why a screen offers no actions, instead of leaving a viewer to wonder where they went. */
export function ReadOnlyNote({ what, children }: { what: string; children?: ReactNode }) {
  const role = useRole();
  return (
    <p className="read-only-note">
      Your role ({role ?? 'unknown'}) can look at {what} but not change them. Ask an owner or admin.{children}
    </p>
  );
}
