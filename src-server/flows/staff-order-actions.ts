// The admin Orders page's two actions (the staff role is checked by the router's staffProcedure): confirm a PayPal
// or bank-transfer payment, or cancel an unpaid order. The change and its audit record commit together.
import type { AuditAction } from '../../src-shared/audit-actions.ts'
import * as audit from '../audit/repository.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { type LockedOrder, lockOrder } from '../orders/lock.ts'
import { cancel, ORDER_NOT_FOUND } from '../orders/pending.ts'
import { markPaid, type PayResult } from './pay-order.ts'

/** Idempotent: a paid order stays paid and is fulfilled once, however often staff click. */
export async function confirmPaymentByStaff(db: DB, orderId: string, actor: audit.Actor): Promise<PayResult> {
  return inTransaction(db, async (trx) => {
    const before = await lockedOrFail(await lockOrder(trx, orderId))
    if (before.method === 'card') {
      throw new DomainError('invalid', 'Card payments are confirmed by Stripe, not by staff')
    }
    const result = await markPaid(trx, orderId, { source: 'staff', actorId: actor.id })
    if (result === 'not_payable') throw new DomainError('invalid', 'A cancelled order cannot be marked as paid')
    if (result === 'fulfilled') await auditStatus(trx, actor, 'order.paid', before, 'paid')
    return result
  })
}

export async function cancelByStaff(db: DB, orderId: string, actor: audit.Actor): Promise<void> {
  await inTransaction(db, async (trx) => {
    const before = await lockedOrFail(await lockOrder(trx, orderId))
    if (await cancel(trx, orderId, actor.id)) await auditStatus(trx, actor, 'order.cancel', before, 'cancelled')
  })
}

function lockedOrFail(order: LockedOrder | undefined): LockedOrder {
  if (!order) throw new DomainError('not_found', ORDER_NOT_FOUND)
  return order
}

function auditStatus(trx: DB, actor: audit.Actor, action: AuditAction, before: LockedOrder, status: string) {
  return audit.record(trx, actor, action, {
    type: 'order',
    id: before.id,
    before: { reference: before.reference, status: before.status },
    after: { reference: before.reference, status },
  })
}
