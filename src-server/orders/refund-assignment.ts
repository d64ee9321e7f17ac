// A partial refund made in the Stripe dashboard names no lines, so which access it paid back is unknown: it is
// recorded for its amount (credit note, Partially refunded) with access untouched, and flagged in /admin/orders
// until staff say which lines it gave back. The lines they pick lose access (ledger reason 'refund'; a plan's
// subscription ends, at Stripe too); picking none keeps access and clears the flag. Decision 0026. A dispute lost
// for part of the payment is flagged the same way (its order stays Disputed, access withheld); the lines staff pick
// are settled as the bank's take-back (creators' shares reversed as a dispute's, services cancelled).

import { REFUND_MESSAGES } from '../../src-shared/schemas/orders.ts'
import { revoke } from '../access/ledger.ts'
import * as audit from '../audit/repository.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { lockOrder } from './lock.ts'
import { type RefundEffects, type RefundGateway, settleGivenBackLines, stripeSubscriptionsEndedBy } from './refunds.ts'
import { listOrderLines } from './repository.ts'

export async function assignRefundLines(
  db: DB,
  input: { refundId: string; lineIds: readonly string[] },
  actor: audit.Actor,
  gateway: RefundGateway | null,
  effects: RefundEffects,
): Promise<{ refundId: string; lines: string[] }> {
  return inTransaction(db, async (trx) => {
    const refund = await trx
      .selectFrom('refunds')
      .select(['id', 'order_id', 'amount_minor', 'method', 'needs_line_assignment'])
      .where('id', '=', input.refundId)
      .executeTakeFirst()
    if (!refund) throw new DomainError('not_found', 'Refund not found')
    const order = (await lockOrder(trx, refund.order_id))!
    // Read again under the order's lock: two staff members settling it at once take turns.
    const flagged = await trx
      .selectFrom('refunds')
      .select('needs_line_assignment')
      .where('id', '=', refund.id)
      .executeTakeFirstOrThrow()
    if (!flagged.needs_line_assignment) throw new DomainError('conflict', REFUND_MESSAGES.alreadyAssigned)
    const lines = await listOrderLines(trx, order.id)
    const chosen = lines.filter((line) => input.lineIds.includes(line.id))
    if (chosen.length !== new Set(input.lineIds).size) throw new DomainError('not_found', 'Order line not found')
    if (chosen.some((line) => line.refund_id)) throw new DomainError('conflict', REFUND_MESSAGES.lineRefunded)
    const now = clock.now()
    if (chosen.length) {
      const ended = await stripeSubscriptionsEndedBy(trx, order.id, chosen)
      if (ended.length && !gateway) throw new DomainError('precondition', 'Stripe is not configured')
      for (const id of ended) await gateway!.cancelSubscription(id)
      await trx
        .updateTable('order_items')
        .set({ refund_id: refund.id, refunded_at: now })
        .where(
          'id',
          'in',
          chosen.map((line) => line.id),
        )
        .execute()
      await revoke(trx, { orderItemIds: chosen.map((line) => line.id) }, 'refund', now)
      await settleGivenBackLines(
        trx,
        { id: order.id, refundId: refund.id, cause: refund.method === 'dispute' ? 'dispute' : 'refund', actor },
        chosen,
        now,
        effects,
      )
    }
    await trx.updateTable('refunds').set({ needs_line_assignment: false }).where('id', '=', refund.id).execute()
    await audit.record(trx, actor, 'order.refund_lines_assigned', {
      type: 'order',
      id: order.id,
      before: { reference: order.reference, refund: refund.id, lines: [] },
      after: { reference: order.reference, refund: refund.id, lines: chosen.map((line) => line.title) },
    })
    return { refundId: refund.id, lines: chosen.map((line) => line.id) }
  })
}
