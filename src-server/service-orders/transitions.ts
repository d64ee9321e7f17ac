// The service-order state machine: every status change a service order may make, in one table, and the one
// function that writes a status (and its history row). Each transition names the states it may leave from; the
// UPDATE itself checks (`where status in from`), so two racing callers can never both move the same order.

import type { ServiceOrderStatus } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

export const SERVICE_ORDER_TRANSITIONS = {
  /** The buyer submits a complete brief; the due date starts counting. */
  submitBrief: { from: ['brief_needed'], to: 'submitted' },
  /** Staff send the brief back to the buyer for changes (the only way a submitted brief becomes editable). */
  reopenBrief: { from: ['submitted', 'in_progress'], to: 'brief_needed' },
  /** Staff pick the order up, first time or after a revision request. */
  start: { from: ['submitted', 'revision_requested'], to: 'in_progress' },
  /** Staff attach the deliverables. */
  deliver: { from: ['in_progress', 'revision_requested'], to: 'delivered' },
  /** The buyer asks for changes to a delivery (within the package's allowance). */
  requestRevision: { from: ['delivered'], to: 'revision_requested' },
  /** The buyer accepts a delivery. */
  accept: { from: ['delivered'], to: 'completed' },
  /** Nobody answered a delivery for N days: the scheduled job completes it. */
  autoComplete: { from: ['delivered'], to: 'completed' },
  /** The subscription of a recurring order ended (cancelled, at the end of its last paid period): it closes. */
  close: { from: ['brief_needed', 'submitted', 'in_progress', 'delivered', 'revision_requested'], to: 'completed' },
  /** Admins cancel an order that is not finished (its line refunded through the refunds flow: staff.ts). */
  cancel: { from: ['brief_needed', 'submitted', 'in_progress', 'delivered', 'revision_requested'], to: 'cancelled' },
} as const satisfies Record<string, { from: readonly ServiceOrderStatus[]; to: ServiceOrderStatus }>

export type ServiceOrderTransition = keyof typeof SERVICE_ORDER_TRANSITIONS

export function canTransition(status: ServiceOrderStatus, transition: ServiceOrderTransition): boolean {
  return (SERVICE_ORDER_TRANSITIONS[transition].from as readonly ServiceOrderStatus[]).includes(status)
}

/** The transitions open from a status (what the screens offer). */
export function transitionsFrom(status: ServiceOrderStatus): ServiceOrderTransition[] {
  return (Object.keys(SERVICE_ORDER_TRANSITIONS) as ServiceOrderTransition[]).filter((name) =>
    canTransition(status, name),
  )
}

type Changes = Partial<{
  brief_submitted_at: Date
  due_at: Date | null
  delivered_at: Date
  completed_at: Date
  cancelled_at: Date
  revisions_used: number
}>

/**
 * Applies a transition and records it in the status history; returns the status it left, or null when the order
 * was not in a state it may leave from (nothing changed). Pass the caller's transaction.
 */
export async function moveServiceOrder(
  trx: DB,
  id: string,
  transition: ServiceOrderTransition,
  actorId: string | null,
  changes: Changes = {},
): Promise<ServiceOrderStatus | null> {
  const { from, to } = SERVICE_ORDER_TRANSITIONS[transition]
  const before = await trx
    .selectFrom('service_orders')
    .select('status')
    .where('id', '=', id)
    .where('status', 'in', from)
    .forUpdate()
    .executeTakeFirst()
  if (!before) return null
  const result = await trx
    .updateTable('service_orders')
    .set({ ...changes, status: to, updated_at: clock.now() })
    .where('id', '=', id)
    .where('status', '=', before.status)
    .executeTakeFirst()
  if (result.numUpdatedRows === 0n) return null
  await trx
    .insertInto('service_order_events')
    .values({ service_order_id: id, from_status: before.status, to_status: to, actor_id: actorId })
    .execute()
  return before.status
}
