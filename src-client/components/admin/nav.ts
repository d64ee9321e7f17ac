import type { StaffRole } from '#shared/roles.ts'

/** The admin sidebar; each entry shows only to roles that may use it (the server enforces the same). */
export const adminNav = [
  { to: '/admin', label: 'Dashboard', minRole: 'viewer' },
  { to: '/admin/analytics', label: 'Analytics', minRole: 'viewer' },
  { to: '/admin/courses', label: 'Courses', minRole: 'viewer' },
  { to: '/admin/categories', label: 'Categories', minRole: 'viewer' },
  { to: '/admin/users', label: 'Team Members', minRole: 'viewer' },
  { to: '/admin/customers', label: 'Customers', minRole: 'viewer' },
  { to: '/admin/orders', label: 'Orders', minRole: 'viewer' },
  { to: '/admin/bundles', label: 'Bundles', minRole: 'editor' },
  { to: '/admin/service-orders', label: 'Service orders', minRole: 'viewer' },
  { to: '/admin/outbox', label: 'Outbox', minRole: 'admin' },
  { to: '/admin/support', label: 'Support inbox', minRole: 'viewer' },
  { to: '/admin/chat', label: 'Live chat', minRole: 'viewer' },
  { to: '/admin/reviews', label: 'Reviews', minRole: 'viewer' },
  { to: '/admin/course-reviews', label: 'Course reviews', minRole: 'viewer' },
  { to: '/admin/messages', label: 'Messages', minRole: 'editor' },
  { to: '/admin/reported-posts', label: 'Reported posts', minRole: 'editor' },
  { to: '/admin/creator-applications', label: 'Creator applications', minRole: 'viewer' },
  { to: '/admin/finance', label: 'Finance', minRole: 'admin' },
  { to: '/admin/coupons', label: 'Coupons', minRole: 'viewer' },
  { to: '/admin/audit', label: 'Audit log', minRole: 'admin' },
] as const satisfies readonly { to: string; label: string; minRole: StaffRole }[]
