import type { Role } from './records.ts';

/**
 * What each role may do: the one table every check reads (dashboard pages, their buttons and
 * their POSTs alike), so a button hidden from a role is also a request refused to it.
 */
export type Permission = 'read' | 'keys:write' | 'users:manage' | 'audit:read' | 'merchants:write' | 'payments:write' | 'webhooks:write' | 'settings:manage';

const PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: ['read', 'keys:write', 'users:manage', 'audit:read', 'merchants:write', 'payments:write', 'webhooks:write', 'settings:manage'],
  // The developer: keys, webhooks and read; refunds, cancels and merchants stay with owners.
  developer: ['read', 'keys:write', 'webhooks:write'],
  viewer: ['read'],
};

export function can(role: Role, permission: Permission): boolean {
  return PERMISSIONS[role].includes(permission);
}
