// Who may see a service order: its buyer, or anyone on the staff. Anyone else is told it does not exist, so ids
// of other buyers' orders reveal nothing.

import type { AuditAction } from '../../src-shared/audit-actions.ts'
import { isStaff, type Role } from '../../src-shared/roles.ts'
import { SERVICE_ORDER_MESSAGES } from '../../src-shared/service-orders.ts'
import * as audit from '../audit/repository.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'

export interface Viewer {
  id: string
  email: string
  role: Role
}

export const notFound = () => new DomainError('not_found', SERVICE_ORDER_MESSAGES.notFound)

/** The order's core row when `viewer` may see it as `as` ('buyer': only their own; 'staff': any, staff only). */
export async function visibleOrder(db: DB, id: string, viewer: Viewer, as: 'buyer' | 'staff' | 'either') {
  const row = await db
    .selectFrom('service_orders')
    .innerJoin('users', 'users.id', 'service_orders.user_id')
    .select([
      'service_orders.id',
      'service_orders.user_id',
      'service_orders.status',
      'service_orders.title',
      'service_orders.service_id',
      'service_orders.assignee_id',
      'service_orders.processing_days',
      'service_orders.revisions_allowed',
      'service_orders.revisions_used',
      'service_orders.recurring',
      'users.email as buyer_email',
    ])
    .where('service_orders.id', '=', id)
    .executeTakeFirst()
  if (!row) throw notFound()
  const own = row.user_id === viewer.id
  const staff = isStaff(viewer.role)
  const allowed = as === 'buyer' ? own : as === 'staff' ? staff : own || staff
  if (!allowed) throw notFound()
  return { ...row, viewerIsStaff: as === 'staff' || (as === 'either' && !own && staff) }
}

export type VisibleOrder = Awaited<ReturnType<typeof visibleOrder>>

/** Staff actions on an order land in the audit log with the status before and after, in the change's transaction. */
export function auditTransition(trx: DB, actor: Viewer, action: AuditAction, id: string, from: string, to: string) {
  return audit.record(trx, actor, action, {
    type: 'service_order',
    id,
    before: { status: from },
    after: { status: to },
  })
}
