// The payment rails as the procedures get them: the settings, the Stripe API (null when card payments are off) and
// what orders/ and service-orders/ are handed to reach Stripe (a refund gateway, a monthly service's stop and a staff
// cancel's money), built once per server by the tRPC context.

import type { RefundGateway } from '../orders/refunds.ts'
import { defaultPayments, type PaymentsConfig } from '../payments/config.ts'
import type { StripeApi } from '../payments/stripe.ts'
import type { CancelOptions } from '../service-orders/staff.ts'
import { cancelMoney, stopAtPeriodEnd } from './service-subscriptions.ts'
import { stripeRefundGateway } from './stripe-refunds.ts'

export interface PaymentsAdapter {
  payments: PaymentsConfig
  stripe: StripeApi | null
  refundGateway: RefundGateway | null
  stopAtPeriodEnd: ReturnType<typeof stopAtPeriodEnd>
  cancelMoney: Pick<CancelOptions, 'refundLines' | 'refundMonth' | 'endSubscription'>
}

/** The rails of these settings (card and PayPal off when there are none). */
export function paymentsAdapter(payments: PaymentsConfig = defaultPayments): PaymentsAdapter {
  return {
    payments,
    stripe: payments.stripe,
    refundGateway: stripeRefundGateway(payments.stripe),
    stopAtPeriodEnd: stopAtPeriodEnd(payments.stripe),
    cancelMoney: cancelMoney(payments.stripe),
  }
}
