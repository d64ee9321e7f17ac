// What "Every plan starts with a 7-day free trial" (pricing) means at checkout: Stripe gives the trial to a card plan
// of a member who never had a plan, and not with a plan code (the two do not stack: flows/start-checkout.ts); the
// trial's plan is charged when it ends, the rest today. PayPal and bank transfer pay the plan's first
// period at once. Said before the Pay button, and by it, so nobody pays expecting a free week or the reverse.

import type { PaymentMethodValue } from '#shared/cart.ts'
import { TRIAL_DAYS } from '#shared/constants.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import type { CartLine } from '../cart/CartItemRow.tsx'
import { useEntitlements } from '../cart/hooks.ts'

/** The free trial a checkout of these lines (one currency) would start by card, or null. */
function useCardTrial(lines: CartLine[]) {
  const { data: entitlements } = useEntitlements()
  const plan = lines.find((line) => line.kind === 'plan')
  if (!plan || !entitlements?.trialAvailable) return null
  // The plan is the checkout's only recurring line: a monthly service is never checked out with it (decision 0136).
  // A code on the plan becomes the subscription's Stripe coupon, which takes the trial's place.
  const planCode = plan.discountMinor > 0
  const deferredMinor = plan.priceMinor - plan.discountMinor
  return { plan, planCode, deferredMinor }
}

export function TrialNote({ lines, method }: { lines: CartLine[]; method: PaymentMethodValue | null }) {
  const trial = useCardTrial(lines)
  if (!trial || !method) return null
  const { plan } = trial
  const price = formatMoney(plan.priceMinor - plan.discountMinor, plan.currency)
  let note: string
  if (method !== 'card')
    note = `The ${TRIAL_DAYS}-day free trial needs a card: with ${method === 'paypal' ? 'PayPal' : 'a bank transfer'}, ${plan.title} starts when your payment arrives.`
  else if (trial.planCode)
    note = `A code on a plan replaces the ${TRIAL_DAYS}-day free trial: ${plan.title} starts today at ${price}.`
  else
    note = `${plan.title} starts with a ${TRIAL_DAYS}-day free trial: its ${price} is charged when the trial ends, unless you cancel before.`
  return (
    <p data-testid="trial-note" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
      {note}
    </p>
  )
}

/** The Pay button's words: what is charged today (nothing in a card trial but the one-time lines). */
export function PayLabel({
  lines,
  method,
  total: { totalMinor, currency },
}: {
  lines: CartLine[]
  method: PaymentMethodValue | null
  total: { totalMinor: number; currency: string }
}) {
  const trial = useCardTrial(lines)
  if (method !== 'card' || !trial || trial.planCode) return `Pay ${formatMoney(totalMinor, currency)}`
  const today = totalMinor - trial.deferredMinor
  return today > 0 ? `Pay ${formatMoney(today, currency)} today` : 'Start Free Trial'
}
