// What "Every plan starts with a 7-day free trial" (pricing) means at checkout: Stripe gives the trial to a card plan
// of a member who never had a plan (subscriptions/repository.ts startSubscription); PayPal and bank transfer pay the
// plan's first period at once. Said before the Pay button, so nobody pays expecting a free week.

import type { PaymentMethodValue } from '#shared/cart.ts'
import { TRIAL_DAYS } from '#shared/constants.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import type { CartLine } from '../cart/CartItemRow.tsx'
import { useEntitlements } from '../cart/hooks.ts'

export function TrialNote({ lines, method }: { lines: CartLine[]; method: PaymentMethodValue | null }) {
  const { data: entitlements } = useEntitlements()
  const plan = lines.find((line) => line.kind === 'plan')
  if (!plan || !entitlements?.trialAvailable || !method) return null
  const price = formatMoney(plan.priceMinor - plan.discountMinor, plan.currency)
  return (
    <p data-testid="trial-note" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
      {method === 'card'
        ? `${plan.title} starts with a ${TRIAL_DAYS}-day free trial: its ${price} is charged when the trial ends, unless you cancel before.`
        : `The ${TRIAL_DAYS}-day free trial needs a card: with ${method === 'paypal' ? 'PayPal' : 'a bank transfer'}, ${plan.title} starts when your payment arrives.`}
    </p>
  )
}
