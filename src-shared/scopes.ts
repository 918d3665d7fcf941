/**
 * Scopes and roles (interface §5, decisions §3). The scope an operation needs is derived from its
 * resource and method here, so the table only names the resource.
 */
export const resources = [
  'api_tokens',
  'orgs',
  'users',
  'roles',
  'org_members',
  'carriers',
  'sender_addresses',
  'shipping_rules',
  'shipments',
  'orders',
  'order_channels',
  'return_portals',
  'printers',
  'webhooks',
] as const;
export type Resource = (typeof resources)[number];

export const scopeValues = [...resources, 'all'].flatMap((r) => [`read:${r}`, `write:${r}`]) as Scope[];
export type Scope = `${'read' | 'write'}:${Resource | 'all'}`;

export const roles = ['owner', 'admin', 'packer', 'viewer'] as const;
export type Role = (typeof roles)[number];

export const roleScopes: Record<Role, readonly Scope[]> = {
  owner: ['write:all'],
  admin: ['write:all'],
  packer: ['read:all', 'write:shipments', 'write:orders', 'write:printers'],
  viewer: ['read:all'],
};

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * An operation that only reads (every GET, and a POST that only asks, decisions §3) needs
 * read:<resource>; anything else write:<resource>.
 */
export function requiredScope(access: 'read' | 'write', resource: Resource): Scope {
  return `${access}:${resource}`;
}

/** write:X implies read:X; read:all / write:all cover every resource. */
export function grants(held: readonly string[], wanted: Scope): boolean {
  const [action, resource] = wanted.split(':');
  return held.some((scope) => {
    const [heldAction, heldResource] = scope.split(':');
    return (heldResource === resource || heldResource === 'all') && (heldAction === action || heldAction === 'write');
  });
}
