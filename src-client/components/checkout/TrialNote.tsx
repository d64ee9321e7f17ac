// What "Every plan starts with a 7-day free trial" (pricing) means at checkout: Stripe gives the trial to a card plan
// of a member who never had a plan, and not with a plan code (the two do not stack). The server says which
// (coupon-cart.ts `planTrial`, asked as the checkout asks it); this only words it. The trial's plan is charged when it
// ends, the rest today. PayPal and bank transfer pay the plan's first period at once. Said before the Pay button, and
// by it, so nobody pays expecting a free week or the reverse.

import type { RouterOutputs } from '#client/lib/types.ts'
import type { PaymentMethodValue } from '#shared/cart.ts'
import { TRIAL_DAYS } from '#shared/constants.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'

type CartTotal = NonNullable<RouterOutputs['cart']['list']>['totals'][number]

export function TrialNote({ total, method }: { total: CartTotal; method: PaymentMethodValue | null }) {
  const trial = total.planTrial
  if (!trial || !method) return null
  const price = formatMoney(trial.planPriceMinor, total.currency)
  let note: string
  if (method !== 'card')
    note = `The ${TRIAL_DAYS}-day free trial needs a card: with ${method === 'paypal' ? 'PayPal' : 'a bank transfer'}, ${trial.planTitle} starts when your payment arrives.`
  else if (!trial.startsWithTrial)
    note = `A code on a plan replaces the ${TRIAL_DAYS}-day free trial: ${trial.planTitle} starts today at ${price}.`
  else
    note = `${trial.planTitle} starts with a ${TRIAL_DAYS}-day free trial: its ${price} is charged when the trial ends, unless you cancel before.`
  return (
    <p data-testid="trial-note" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
      {note}
    </p>
  )
}

/** The Pay button's words: what is charged today (nothing in a card trial but the one-time lines). */
export function PayLabel({ total, method }: { total: CartTotal; method: PaymentMethodValue | null }) {
  const { totalMinor, currency, planTrial } = total
  if (method !== 'card' || !planTrial?.startsWithTrial) return `Pay ${formatMoney(totalMinor, currency)}`
  const today = totalMinor - planTrial.planPriceMinor
  return today > 0 ? `Pay ${formatMoney(today, currency)} today` : 'Start Free Trial'
}
