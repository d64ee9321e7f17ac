// Stripe's side of service orders, handed to service-orders/ by the routers (that folder does not import payments/
// or orders/): stopping a monthly service's subscription at its period's end, ending it now, and refunding an
// order's lines through the refunds flow with Stripe as the card gateway.
import type { StripeApi } from '../payments/stripe.ts'
import type { CancelOptions } from '../service-orders/staff.ts'
import { refundOrder } from './refunds.ts'
import { stripeMonthRefund, stripeRefundGateway } from './stripe-refunds.ts'

/** Cancels at the period's end; answers when the paid period ends. */
export function stopAtPeriodEnd(stripe: StripeApi | null) {
  if (!stripe) return null
  return async (stripeSubscriptionId: string): Promise<Date | null> => {
    const sub = await stripe.setCancelAtPeriodEnd(stripeSubscriptionId, true)
    const end = sub.items?.data[0]?.current_period_end ?? sub.current_period_end
    return end ? new Date(end * 1000) : null
  }
}

/** What a staff cancel needs to refund the order's line or its month in progress, and to end a subscription. */
export function cancelMoney(
  stripe: StripeApi | null,
): Pick<CancelOptions, 'refundLines' | 'refundMonth' | 'endSubscription'> {
  const gateway = stripeRefundGateway(stripe)
  return {
    refundLines: (trx, { links, ...request }) => refundOrder(trx, request, gateway, links),
    refundMonth: stripeMonthRefund(stripe),
    endSubscription: stripe
      ? async (id) => {
          await stripe.cancelSubscription(id)
        }
      : null,
  }
}
