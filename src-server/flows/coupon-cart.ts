// Apply code, remove code, and the cart with its discount: the cart's lines (cart/) priced with the applied coupon
// (promotions/). One code per cart; a code that no longer covers anything (its item removed) is dropped.

import {
  COUPON_TOO_MANY,
  codeCoversFewerCheckouts,
  codeRemovedAtCheckout,
  isCouponRefusal,
} from '../../src-shared/promotions.ts'
import type { CartLine, CurrencyTotal } from '../cart/lines.ts'
import { totalsByCurrency } from '../cart/lines.ts'
import { removeCartItem } from '../cart/repository.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError, isDomainError } from '../kernel/errors.ts'
import type { QuoteRefusal } from '../promotions/coupon-pricing.ts'
import {
  appliedCoupon,
  applyToCart,
  type Coupon,
  findCouponByCode,
  ordersLeftFor,
  refusal,
  refusalText,
  removeFromCart,
} from '../promotions/coupons.ts'
import { type AttemptGuard, reserveAttempt } from '../security/attempts.ts'
import { RATE_RULES, type RateLimiter } from '../security/rate-limit.ts'
import { hasHadSubscription } from '../subscriptions/repository.ts'
import { listCartLines } from './cart-lines.ts'
import { cardTrialStarts } from './checkout-session.ts'
import { buyerOf, quoteGroup } from './coupon-checkout.ts'

type Group = { currency: CartLine['currency']; lines: CartLine[] }

function groups(lines: readonly CartLine[]): Group[] {
  const map = new Map<CartLine['currency'], CartLine[]>()
  for (const line of lines) map.set(line.currency, [...(map.get(line.currency) ?? []), line])
  return [...map].map(([currency, group]) => ({ currency, lines: group }))
}

/**
 * Each line's discount under the coupon (by line id) and how many currency groups (each its own checkout) it
 * discounts, or the refusal when no group gets one.
 */
async function priceCart(db: DB, userId: string, coupon: Coupon, lines: readonly CartLine[]) {
  const discounts = new Map<string, number>()
  let discountedGroups = 0
  let reason: QuoteRefusal = { ok: false, refusal: 'nothingApplies' }
  for (const group of groups(lines)) {
    const quote = await quoteGroup(db, coupon, userId, group.currency, group.lines)
    if (!quote.ok) {
      if (quote.refusal !== 'nothingApplies') reason = quote
      continue
    }
    const before = discounts.size
    group.lines.forEach((line, index) => {
      if ((quote.perLine[index] ?? 0) > 0) discounts.set(line.id, quote.perLine[index]!)
    })
    if (discounts.size > before) discountedGroups += 1
  }
  return discounts.size > 0 ? { ok: true as const, discounts, discountedGroups } : reason
}

/**
 * The cart's word when the code discounts more currency groups than orders it may still be used on (a once-per-
 * customer or first-purchase code over a cart of two currencies): each group is its own order, and the ones paid after
 * the last use are charged without it. Null when every group it discounts can have it.
 */
async function fewerCheckoutsNote(db: DB, userId: string, coupon: Coupon, discountedGroups: number) {
  if (discountedGroups < 2) return null
  const left = await ordersLeftFor(db, coupon, await buyerOf(db, userId))
  return left !== null && left < discountedGroups ? codeCoversFewerCheckouts(coupon.code, left) : null
}

/** Who is typing codes, for the limit on codes that do not exist (a short code is guessable: decision 0114). */
export interface CouponGuessGuard {
  limiter: RateLimiter
  clientIp: string
  onError?: (error: unknown) => void
}

function guessGuards(userId: string, clientIp: string): AttemptGuard[] {
  return [
    { rule: RATE_RULES.couponMisses, key: `coupon-miss:${userId}` },
    { rule: RATE_RULES.couponMissesPerAddress, key: `coupon-miss-ip:${clientIp}` },
  ]
}

/**
 * 'Apply code': the code goes on the cart only when it takes something off; otherwise the reason is thrown. Codes
 * that do not exist are counted per person and per client address; once either is full every code is refused
 * (a right guess included) until the window ends, so codes cannot be found by trying them in bulk.
 */
export async function applyCoupon(db: DB, userId: string, code: string, guard?: CouponGuessGuard) {
  const attempt = guard
    ? await reserveAttempt(guard.limiter, guessGuards(userId, guard.clientIp), COUPON_TOO_MANY, guard.onError)
    : null
  const coupon = await findCouponByCode(db, code)
  if (!coupon) throw refusal('unknown')
  await attempt?.release()
  const priced = await priceCart(db, userId, coupon, await listCartLines(db, userId))
  if (!priced.ok) throw refusal(priced.refusal, priced.minimum)
  await applyToCart(db, userId, coupon.id)
  return { code: coupon.code }
}

export async function removeCoupon(db: DB, userId: string) {
  return { removed: await removeFromCart(db, userId) }
}

/**
 * After lines leave the cart (removed by the buyer, bought, enrolled in for free): the code goes too when nothing left
 * in the cart qualifies for it, so an emptied cart does not keep a code for whatever is added next. Gives the code it
 * dropped, or null.
 */
export async function dropCodeCoveringNothing(db: DB, userId: string): Promise<string | null> {
  const coupon = await appliedCoupon(db, userId)
  if (!coupon) return null
  const lines = await listCartLines(db, userId)
  const priced = lines.length > 0 ? await priceCart(db, userId, coupon, lines) : null
  if (priced && (priced.ok || priced.refusal !== 'nothingApplies')) return null
  return (await removeFromCart(db, userId)) ? coupon.code : null
}

/**
 * Removing a line: the code goes too when nothing left in the cart qualifies for it, and the answer names it so the
 * cart can say so (`droppedCode`), not leave the buyer to find the discount gone.
 */
export async function removeLine(db: DB, userId: string, itemId: string) {
  const removed = await removeCartItem(db, userId, itemId)
  if (!removed) throw new DomainError('not_found', 'Item not found in your cart')
  return { removed, droppedCode: await dropCodeCoveringNothing(db, userId) }
}

/** A refusal of the cart's code (used up, expired, …), as quoting or reserving it throws. */
function isCodeRefusal(error: unknown): error is DomainError {
  return isDomainError(error) && error.field === 'code' && isCouponRefusal(error.message)
}

/**
 * A checkout the cart's code refused (used up by another buyer or expired since the page showed it): the code cannot
 * be used for this order, so it leaves the cart, and the refusal says so. The payment page then reloads the cart and
 * shows the price without it, where the code would otherwise refuse every retry (decision 0145). Anything else is
 * thrown as it was.
 */
export async function dropRefusedCode(db: DB, userId: string, error: unknown): Promise<never> {
  if (!isCodeRefusal(error)) throw error
  const coupon = await appliedCoupon(db, userId)
  if (!coupon || !(await removeFromCart(db, userId))) throw error
  throw new DomainError(error.kind, codeRemovedAtCheckout(error.message, coupon.code), { field: 'code', cause: error })
}

/**
 * What a card checkout of one currency's lines does with its plan, for the payment page's note and Pay button: the
 * plan's title and its price after any code, and whether it starts with the free trial (cardTrialStarts: not with a
 * code on it). Null without a plan, or for a buyer who had one (no trial to speak of).
 */
export interface PlanTrial {
  planTitle: string
  planPriceMinor: number
  startsWithTrial: boolean
}

export interface CouponCartView {
  items: (CartLine & { discountMinor: number })[]
  totals: (CurrencyTotal & { discountMinor: number; planTrial: PlanTrial | null })[]
  count: number
  coupon: { code: string; applies: boolean; refusal: string | null; note: string | null } | null
}

/** The cart page: lines with their discount, totals after it, and the applied code (with why it no longer works). */
export async function cartWithCoupon(db: DB, userId: string): Promise<CouponCartView> {
  const lines = await listCartLines(db, userId)
  const coupon = await appliedCoupon(db, userId)
  const priced = coupon ? await priceCart(db, userId, coupon, lines) : null
  const discounts = priced?.ok ? priced.discounts : new Map<string, number>()
  const items = lines.map((line) => ({ ...line, discountMinor: discounts.get(line.id) ?? 0 }))
  const trialEligible = items.some((item) => item.kind === 'plan') && !(await hasHadSubscription(db, userId))
  const totals = totalsByCurrency(lines).map((total) => {
    const ofCurrency = items.filter((item) => item.currency === total.currency)
    const discountMinor = ofCurrency.reduce((sum, item) => sum + item.discountMinor, 0)
    // The plan is the checkout's only recurring line: a monthly service is never checked out with it (decision 0136).
    const plan = trialEligible ? ofCurrency.find((item) => item.kind === 'plan') : undefined
    const planTrial = plan
      ? {
          planTitle: plan.title,
          planPriceMinor: plan.priceMinor - plan.discountMinor,
          startsWithTrial: cardTrialStarts(true, plan.discountMinor > 0),
        }
      : null
    return { ...total, discountMinor, totalMinor: total.totalMinor - discountMinor, planTrial }
  })
  return {
    items,
    totals,
    count: lines.length,
    coupon: coupon
      ? {
          code: coupon.code,
          applies: Boolean(priced?.ok),
          refusal: priced && !priced.ok ? refusalText(priced.refusal, priced.minimum) : null,
          note: priced?.ok ? await fewerCheckoutsNote(db, userId, coupon, priced.discountedGroups) : null,
        }
      : null,
  }
}
