// The money for a service order given back (a staff refund of its order or its line, a refund in Stripe's dashboard,
// a lost dispute, an approved refund request): the order stops, in the refund's transaction. One not finished is
// cancelled as a staff cancel does (history row, audit record, the buyer's e-mail) but refunds nothing itself: the
// refund is the caller's. A completed or cancelled order keeps its status; its page says the payment was given back.
// Decision 0132.

import * as audit from '../audit/repository.ts'
import type { DB } from '../kernel/db.ts'
import { type MailLinks, mailStatusToBuyer } from './mails.ts'
import { moveServiceOrder } from './transitions.ts'

/** What the buyer's "Cancelled" e-mail says when a refund cancelled the order. */
export const REFUND_CANCEL_LINE =
  'Your order has been cancelled because its payment was refunded. Reply to this e-mail if you have questions.'

/**
 * Cancels the unfinished service orders the given-back order lines bought. `actor`: the staff member who refunded
 * (audited), or null for Stripe's events (the history row names nobody). Pass the refund's transaction.
 */
export async function cancelServiceOrdersOfLines(
  trx: DB,
  orderItemIds: readonly string[],
  actor: audit.Actor | null,
  links: MailLinks,
  at: Date,
): Promise<string[]> {
  if (orderItemIds.length === 0) return []
  const orders = await trx
    .selectFrom('service_orders as so')
    .innerJoin('order_items as i', (join) =>
      join.onRef('i.order_id', '=', 'so.order_id').onRef('i.service_package_id', '=', 'so.service_package_id'),
    )
    .select('so.id')
    .where('i.id', 'in', orderItemIds)
    .where('i.kind', '=', 'service_package')
    .where('so.status', 'not in', ['completed', 'cancelled'])
    .orderBy('so.id')
    .execute()
  const cancelled: string[] = []
  for (const { id } of orders) {
    const from = await moveServiceOrder(trx, id, 'cancel', actor?.id ?? null, { cancelled_at: at, due_at: null })
    if (!from) continue
    cancelled.push(id)
    if (actor) {
      await audit.record(trx, actor, 'service_order.cancel', {
        type: 'service_order',
        id,
        before: { status: from },
        after: { status: 'cancelled', cause: 'refund' },
      })
    }
    await mailStatusToBuyer(trx, id, 'cancelled', links, REFUND_CANCEL_LINE)
  }
  return cancelled
}
