// A paid order's business-service packages become service orders for staff to work on (one per package, once),
// each waiting for its brief, with the package's processing days and revisions copied as they were when bought.
// A monthly package is a recurring order: by card it names the Stripe subscription whose paid invoices open its
// periods (recurring.ts); paid another way, the payment covers its first month.

import type { CartItemKind } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { openPeriod } from './recurring.ts'

export interface PaidPackages {
  userId: string
  orderId: string
  lines: readonly {
    kind: CartItemKind
    service_package_id: string | null
    title: string
    recurring_interval?: 'month' | 'year' | null
  }[]
  /** The subscription a card checkout of a monthly package started. */
  stripeSubscriptionId?: string | null
  paidAt?: Date
}

export async function openServiceOrders(trx: DB, order: PaidPackages): Promise<void> {
  const packages = order.lines.filter((line) => line.kind === 'service_package')
  if (packages.length === 0) return
  const packageIds = packages.flatMap((line) => (line.service_package_id ? [line.service_package_id] : []))
  const terms =
    packageIds.length === 0
      ? []
      : await trx
          .selectFrom('service_packages')
          .select(['id', 'service_id', 'processing_days', 'revisions'])
          .where('id', 'in', packageIds)
          .execute()
  const termsOf = new Map(terms.map((row) => [row.id, row]))
  const opened = await trx
    .insertInto('service_orders')
    .values(
      packages.map((line) => {
        const pkg = line.service_package_id ? termsOf.get(line.service_package_id) : undefined
        const recurring = Boolean(line.recurring_interval)
        return {
          recurring,
          stripe_subscription_id: recurring ? (order.stripeSubscriptionId ?? null) : null,
          user_id: order.userId,
          order_id: order.orderId,
          service_package_id: line.service_package_id,
          title: line.title,
          service_id: pkg?.service_id ?? null,
          ...(pkg ? { processing_days: pkg.processing_days, revisions_allowed: pkg.revisions } : {}),
        }
      }),
    )
    .onConflict((oc) => oc.columns(['order_id', 'service_package_id']).doNothing())
    .returning(['id', 'recurring', 'stripe_subscription_id'])
    .execute()
  if (opened.length === 0) return
  await trx
    .insertInto('service_order_events')
    .values(opened.map((row) => ({ service_order_id: row.id, from_status: null, to_status: 'brief_needed' as const })))
    .execute()
  // Without a subscription nothing will open the first period: the payment itself paid for it.
  const paidAt = order.paidAt ?? clock.now()
  for (const row of opened.filter((r) => r.recurring && !r.stripe_subscription_id)) {
    const endsAt = new Date(paidAt)
    endsAt.setUTCMonth(endsAt.getUTCMonth() + 1)
    await openPeriod(trx, row.id, { stripeInvoiceId: null, startsAt: paidAt, endsAt })
  }
}
