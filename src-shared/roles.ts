// Staff roles, lowest to highest. 'customer' is every shopper; the owner is 'super_admin' (spec §6).
export const ROLES = ['customer', 'viewer', 'editor', 'admin', 'super_admin'] as const
export type Role = (typeof ROLES)[number]
export type StaffRole = Exclude<Role, 'customer'>

export const STAFF_ROLES: readonly StaffRole[] = ['viewer', 'editor', 'admin', 'super_admin']

export function roleRank(role: Role): number {
  return ROLES.indexOf(role)
}

/** True when `role` is at least `minRole` in the staff hierarchy. */
export function hasRole(role: Role, minRole: Role): boolean {
  return roleRank(role) >= roleRank(minRole)
}

export function isStaff(role: Role): boolean {
  return hasRole(role, 'viewer')
}

/** The roles that need a second factor before any staff screen when STAFF_2FA=required: admins and the owner. */
export function staffRoleNeedsTwoFactor(role: Role): boolean {
  return hasRole(role, 'admin')
}
