import type { ApiKeyRecord, KeyPermission } from '../partners/records.ts';
import type { Role } from './records.ts';

/**
 * What each role may do: the one table every check reads (dashboard pages, their buttons and
 * their POSTs alike), so a button hidden from a role is also a request refused to it. The same
 * table limits the partner keys a user makes (see keyPermissionsOf), so a key is never a way
 * around a role.
 */
export type Permission = KeyPermission | 'keys:write' | 'users:manage' | 'audit:read' | 'settings:manage';

const PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: ['read', 'keys:write', 'users:manage', 'audit:read', 'merchants:write', 'payments:create', 'payments:write', 'webhooks:write', 'settings:manage'],
  // The developer: keys, webhooks and read; refunds, cancels and merchants stay with owners.
  // Creating payments is what the integration a developer builds does (API only, no dashboard form).
  developer: ['read', 'keys:write', 'webhooks:write', 'payments:create'],
  viewer: ['read'],
};

export const KEY_PERMISSIONS: readonly KeyPermission[] = ['read', 'payments:create', 'payments:write', 'merchants:write', 'webhooks:write'];

export const isKeyPermission = (s: string): s is KeyPermission => (KEY_PERMISSIONS as readonly string[]).includes(s);

export function can(role: Role, permission: Permission): boolean {
  return PERMISSIONS[role].includes(permission);
}

/** The API permissions a partner key made by this role holds at most. */
export const keyPermissionsOf = (role: Role): KeyPermission[] => KEY_PERMISSIONS.filter((p) => can(role, p));

/** What a key may do through the API: its own list, or everything (keys without one). */
export const keyPermits = (key: Pick<ApiKeyRecord, 'permissions'>, permission: KeyPermission): boolean => !key.permissions || key.permissions.includes(permission);

/**
 * Whether a user of this role may hold (keep) this key: the role may make keys at all, and a partner
 * key does nothing the role may not. A removed or demoted user's keys that fail this are revoked.
 */
export function roleMayHold(role: Role, key: Pick<ApiKeyRecord, 'scope' | 'permissions'>): boolean {
  if (!can(role, 'keys:write')) return false;
  if (key.scope !== 'partner') return true;
  return (key.permissions ?? KEY_PERMISSIONS).every((p) => can(role, p));
}
