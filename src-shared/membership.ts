// How a membership is told in words, the same on /account, on the success page, in order history and in e-mails. Its
// days are formatDate's long day in UTC ('1 December 2026', decision 0095), so the server's e-mails and every browser
// say the same day.
import { formatDate } from './dates.ts'
import { formatMoney } from './money.ts'

export type MembershipStatus = 'trialing' | 'active' | 'past_due' | 'cancelled'

export interface MembershipFacts {
  status: MembershipStatus
  renewsAt: string | null
  trialEndsAt: string | null
  cancelAtPeriodEnd: boolean
  amountMinor: number | null
  currency: string | null
  /** When and why a plan ended (status 'cancelled'): cancelled, lapsed after a failed payment, or refunded. */
  endedAt?: string | null
  endReason?: MembershipEndReason | null
}

export type MembershipEndReason = 'cancellation' | 'lapse' | 'refund'

/** "Cancelled on DATE", "Ended on DATE — payment failed" or "Refunded on DATE"; "Cancelled" without a date. */
function endedText(facts: MembershipFacts): string {
  if (!facts.endedAt) return 'Cancelled'
  const day = formatDate(facts.endedAt)
  if (facts.endReason === 'lapse') return `Ended on ${day} — payment failed`
  if (facts.endReason === 'refund') return `Refunded on ${day}`
  return `Cancelled on ${day}`
}

/** The day a plan next charges, or ends if cancelled: in a free trial, the trial's end (its first charge). */
export const nextChargeDay = (facts: Pick<MembershipFacts, 'status' | 'renewsAt' | 'trialEndsAt'>): string | null =>
  facts.status === 'trialing' && facts.trialEndsAt ? facts.trialEndsAt : facts.renewsAt

const price = (facts: MembershipFacts) => formatMoney(facts.amountMinor ?? 0, facts.currency ?? 'USD')

/** "Free trial until DATE — first charge of $X", "Active — renews on DATE for $X", "Past due — update your card"… */
export function membershipStatusText(facts: MembershipFacts): string {
  if (facts.status === 'cancelled') return endedText(facts)
  if (facts.status === 'past_due') return 'Past due — update your card'
  const next = nextChargeDay(facts)
  if (facts.cancelAtPeriodEnd && next) return `Cancels on ${formatDate(next)}`
  if (facts.status === 'trialing' && facts.trialEndsAt) {
    return `Free trial until ${formatDate(facts.trialEndsAt)} — first charge of ${price(facts)}`
  }
  return facts.renewsAt ? `Active — renews on ${formatDate(facts.renewsAt)} for ${price(facts)}` : 'Active'
}

/**
 * What the success page and the receipt of an order that started a free trial say of the money: what the order's
 * other lines took today (a course bought with the plan), or that nothing was charged.
 */
export function trialChargeText(paidMinor: number, currency: string): string {
  return paidMinor > 0
    ? `${formatMoney(paidMinor, currency)} was charged today for the rest of your order. The plan is not charged until then; cancel before that date from your account and it will not be`
    : 'Nothing has been charged yet; cancel before then from your account and you will not be charged'
}

/** What the success page, the receipt and order history say of an order that started a free trial. */
export function trialStartedText(amountMinor: number, currency: string, firstChargeAt: string | Date): string {
  return `Free trial started — first charge of ${formatMoney(amountMinor, currency)} on ${formatDate(firstChargeAt)}`
}

/**
 * What paying annually saves against twelve monthly payments, as the pricing page states it: the smallest saving of
 * the plans, in whole percent rounded down, so no plan saves less than it says (0 without plans).
 */
export function annualSavingPercent(plans: readonly { monthlyPriceMinor: number; annualPriceMinor: number }[]): number {
  const savings = plans
    .filter((plan) => plan.monthlyPriceMinor > 0)
    .map((plan) =>
      Math.floor(((12 * plan.monthlyPriceMinor - plan.annualPriceMinor) * 100) / (12 * plan.monthlyPriceMinor)),
    )
  return savings.length ? Math.max(0, Math.min(...savings)) : 0
}

/**
 * A gifted plan in a sentence: "a Pro membership for 3 months", "an Enterprise membership for 1 month". Named by its
 * plan, not by its order line's title, which holds the term already ("Pro membership: 3 months").
 */
export function giftedMembershipWords(planName: string | null, months: number | null): string {
  const name = planName ? `${planName} membership` : 'membership'
  const article = /^[aeiou]/i.test(name) ? 'an' : 'a'
  const term = months ? ` for ${months} ${months === 1 ? 'month' : 'months'}` : ''
  return `${article} ${name}${term}`
}
