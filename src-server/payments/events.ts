// Applies a verified Stripe event exactly once: the event id is recorded in the same transaction that
// changes the order (a redelivery finds it and stops), and the order row lock serialises different events.
import type { Kysely, Transaction } from 'kysely'
import type Stripe from 'stripe'
import type { Database } from '../../db/types.ts'
import { fulfilOrderInTransaction } from '../orders/fulfil.ts'
import { isSessionPaid, orderIdOf, subscriptionIdOf } from './checkout.ts'

export type EventOutcome = 'processed' | 'duplicate' | 'ignored'

const SUBSCRIPTION_STATUS: Record<string, 'trialing' | 'active' | 'past_due' | 'cancelled'> = {
  trialing: 'trialing',
  active: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  canceled: 'cancelled',
  incomplete_expired: 'cancelled',
}

export async function processStripeEvent(db: Kysely<Database>, event: Stripe.Event): Promise<EventOutcome> {
  return db.transaction().execute(async (trx) => {
    const first = await trx
      .insertInto('processed_stripe_events')
      .values({ id: event.id, type: event.type })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!first) return 'duplicate'
    return applyEvent(trx, event)
  })
}

async function applyEvent(trx: Transaction<Database>, event: Stripe.Event): Promise<EventOutcome> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object
      const orderId = orderIdOf(session)
      if (!orderId || !isSessionPaid(session)) return 'ignored'
      await fulfilOrderInTransaction(trx, orderId, {
        source: 'stripe',
        stripeSubscriptionId: subscriptionIdOf(session),
      })
      return 'processed'
    }
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const orderId = orderIdOf(event.data.object)
      if (!orderId) return 'ignored'
      await trx
        .updateTable('orders')
        .set({ status: 'failed', updated_at: new Date() })
        .where('id', '=', orderId)
        .where('status', '=', 'pending')
        .execute()
      return 'processed'
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object
      const status =
        event.type === 'customer.subscription.deleted' ? 'cancelled' : SUBSCRIPTION_STATUS[subscription.status]
      if (!status) return 'ignored'
      const periodEnd = subscription.trial_end ?? subscription.items?.data?.[0]?.current_period_end ?? null
      await trx
        .updateTable('subscriptions')
        .set({
          status,
          updated_at: new Date(),
          ...(periodEnd ? { renews_at: new Date(periodEnd * 1000) } : {}),
        })
        .where('stripe_subscription_id', '=', subscription.id)
        .execute()
      return 'processed'
    }
    default:
      return 'ignored'
  }
}
