// A gift's e-mail and claim (issue 32). Paying a gift order enrols nobody: the gift waits for its send date, then one
// e-mail with a single-use claim link goes out through the outbox (at payment when it is already due, else from the
// scheduled sweep: once even if the sweep runs twice). Claiming grants the course to the claiming account, from the
// gift's order line, so refunding that line revokes the recipient's access like any refund does.

import { lineNetMinor } from '../../src-shared/money.ts'
import { grant } from '../access/ledger.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { lockOrder } from '../orders/lock.ts'
import { listOrderLines } from '../orders/repository.ts'
import {
  findGiftByToken,
  GIFT_MESSAGES,
  type Gift,
  giftOfOrder,
  issueClaimLink,
  listDueGifts,
  lockGiftByToken,
  markClaimed,
  markGiftPaid,
} from '../promotions/gifts.ts'
import { premiumGrantedUntil } from '../subscriptions/premium.ts'
import { liveSubscriptionOf } from '../subscriptions/repository.ts'
import { userContact } from '../users/contact.ts'
import { brandOfOrderLines } from './school-domain.ts'
import { emitCourseEvent } from './webhook-events.ts'

/** The gift's line and who sent it, as its e-mail and its claim page name them. */
async function giftWords(db: DB, gift: Gift) {
  const line = (await listOrderLines(db, gift.order_id)).find((l) => l.id === gift.order_item_id)
  const buyer = await userContact(db, gift.buyer_id)
  const from = [buyer?.first_name, buyer?.last_name].filter(Boolean).join(' ') || 'Someone'
  return { line, from }
}

/** The e-mail with the claim link; the token is in its text only (the row keeps a hash). */
export async function mailGift(trx: DB, gift: Gift, token: string): Promise<void> {
  const { line, from } = await giftWords(trx, gift)
  // A gift of a white-label school's course comes under the school's name (decision 0063).
  const brand = line ? await brandOfOrderLines(trx, [line]) : null
  const site = brand?.displayName ?? 'SkillForge'
  const link = `${gift.link_origin}/gifts/claim?token=${token}`
  const message = gift.message ? `\n\nTheir message:\n${gift.message}\n` : '\n'
  const plan = gift.plan_months !== null
  const what = plan ? `a membership (${line?.title ?? 'Premium'})` : `the course "${line?.title ?? ''}"`
  const starts = plan
    ? ' Your membership starts the day you claim it (if you already have Premium, the day that ends).'
    : ''
  await enqueueMail(trx, {
    kind: 'gift',
    to: gift.recipient_email,
    subject: `${from} sent you ${plan ? 'a membership' : 'a course'}: ${line?.title ?? 'a gift'}`,
    text: `Hi,\n\n${from} has given you ${what} on ${site}.${message}\nClaim your gift (sign up or log in, then it is yours): ${link}${starts}\n\nThe link works once. If you were not expecting this, you can ignore this e-mail.`,
    ...(brand ? { fromName: brand.displayName } : {}),
  })
}

/**
 * Called inside the payment's transaction (grant-paid-order.ts): true when the order is a gift, whose buyer is then
 * not enrolled. The gift's e-mail goes out now when it is due.
 */
export async function fulfilGiftOrder(trx: DB, orderId: string, paidAt: Date): Promise<boolean> {
  const existing = await giftOfOrder(trx, orderId)
  if (!existing) return false
  const paid = await markGiftPaid(trx, orderId, paidAt)
  if (paid) await emitGiftPurchased(trx, paid)
  if (paid && paid.send_at.getTime() <= paidAt.getTime()) {
    const link = await issueClaimLink(trx, paid.id, { onlyFirst: true }, paidAt)
    if (link) await mailGift(trx, link.gift, link.token)
  }
  return true
}

/** gift.purchased for the school of a gifted course (a gifted plan is no school's), once: when the gift is paid. */
async function emitGiftPurchased(trx: DB, gift: Gift): Promise<void> {
  const line = (await listOrderLines(trx, gift.order_id)).find((l) => l.id === gift.order_item_id)
  if (!line?.course_id) return
  const order = await trx.selectFrom('orders').select('currency').where('id', '=', gift.order_id).executeTakeFirst()
  await emitCourseEvent(trx, line.course_id, 'gift.purchased', {
    giftId: gift.id,
    orderId: gift.order_id,
    orderItemId: gift.order_item_id,
    buyerId: gift.buyer_id,
    amountMinor: lineNetMinor(line),
    currency: order?.currency ?? null,
    sendAt: gift.send_at.toISOString(),
  })
}

/** The scheduled sweep: gifts whose send date came. Each is mailed once: the link is issued only if none was. */
export async function sendDueGifts(db: DB, now = clock.now()): Promise<number> {
  let sent = 0
  for (const { id } of await listDueGifts(db, now)) {
    await inTransaction(db, async (trx) => {
      const link = await issueClaimLink(trx, id, { onlyFirst: true }, now)
      if (!link) return
      await mailGift(trx, link.gift, link.token)
      sent++
    })
  }
  return sent
}

/** The same day `months` later (the month's last day when it has no such day), in UTC. */
export function addMonths(from: Date, months: number): Date {
  const date = new Date(from.getTime())
  const day = date.getUTCDate()
  date.setUTCDate(1)
  date.setUTCMonth(date.getUTCMonth() + months)
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate()
  date.setUTCDate(Math.min(day, last))
  return date
}

/**
 * When a gifted term begins: now, or when the Premium the recipient holds ends (a subscription set to end, another
 * gifted term). A subscription that renews has no end to follow: its member cancels the renewal first.
 */
async function giftedTermStart(trx: DB, userId: string, now: Date): Promise<Date> {
  const paid = await liveSubscriptionOf(trx, userId)
  if (paid && !paid.cancel_at_period_end) throw new DomainError('conflict', GIFT_MESSAGES.paysForPremium)
  const ends = [now, paid?.renews_at, await premiumGrantedUntil(trx, userId, now)].filter(
    (at): at is Date => at instanceof Date,
  )
  return new Date(Math.max(...ends.map((at) => at.getTime())))
}

/**
 * What the claim page shows before the claim (to a visitor too: the link is the recipient's): the gift, its sender and
 * message, and whether it can still be claimed. The same refusal as a claim for a link that names no gift.
 */
export async function giftPreview(db: DB, token: string) {
  const gift = await findGiftByToken(db, token)
  const order = gift
    ? await db.selectFrom('orders').select('status').where('id', '=', gift.order_id).executeTakeFirst()
    : null
  if (!gift || !order) throw new DomainError('not_found', GIFT_MESSAGES.badLink)
  const { line, from } = await giftWords(db, gift)
  if (!line) throw new DomainError('not_found', GIFT_MESSAGES.badLink)
  // Why a claim would be refused, in the claim's own words; null while it can be claimed.
  const refusal = gift.claimed_at
    ? GIFT_MESSAGES.claimed
    : line.refund_id || order.status === 'refunded'
      ? GIFT_MESSAGES.refunded
      : null
  return {
    kind: line.course_id ? ('course' as const) : ('membership' as const),
    title: line.title,
    planMonths: gift.plan_months,
    from,
    message: gift.message,
    refusal,
  }
}

/** The recipient claims the gift with the link's token: the course is theirs, once. */
export async function claimGift(db: DB, userId: string, token: string) {
  return inTransaction(db, async (trx) => {
    const gift = await lockGiftByToken(trx, token)
    if (!gift) throw new DomainError('not_found', GIFT_MESSAGES.badLink)
    if (gift.claimed_at) throw new DomainError('conflict', GIFT_MESSAGES.claimed)
    // The order under its lock: a refund racing this claim either comes first (refused here) or revokes after.
    const order = await lockOrder(trx, gift.order_id)
    const line = (await listOrderLines(trx, gift.order_id)).find((l) => l.id === gift.order_item_id)
    if (!order || !line || !(line.course_id || (line.plan_id && gift.plan_months)))
      throw new DomainError('not_found', GIFT_MESSAGES.badLink)
    if (line.refund_id || order.status === 'refunded') throw new DomainError('conflict', GIFT_MESSAGES.refunded)
    if (order.status !== 'paid') throw new DomainError('conflict', GIFT_MESSAGES.notClaimable)
    const now = clock.now()
    const givesPlan = !line.course_id && line.plan_id && gift.plan_months
    // A prepaid term is never spent alongside Premium the recipient pays for or already holds: it follows it.
    const startsAt = givesPlan ? await giftedTermStart(trx, userId, now) : now
    if (!(await markClaimed(trx, gift.id, userId, now))) throw new DomainError('conflict', GIFT_MESSAGES.claimed)
    const source = { kind: 'order_item', orderId: gift.order_id, orderItemId: gift.order_item_id } as const
    if (givesPlan && line.plan_id && gift.plan_months) {
      // A gifted plan: Premium for the prepaid term, then it ends (no renewal, nothing to cancel). Its source is the
      // gift's order line, so a refund of the gift revokes it as any refund does.
      const endsAt = addMonths(startsAt, gift.plan_months)
      await grant(trx, { userId, right: { kind: 'premium' }, source, startsAt, endsAt })
      return { planId: line.plan_id, title: line.title, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() }
    }
    const courseId = line.course_id!
    const { created } = await grant(trx, { userId, right: { kind: 'course', courseId }, source, startsAt: now })
    const common = { learnerId: userId, orderId: gift.order_id, orderItemId: gift.order_item_id }
    await emitCourseEvent(trx, courseId, 'gift.claimed', { ...common, giftId: gift.id, buyerId: gift.buyer_id })
    if (created) await emitCourseEvent(trx, courseId, 'enrolment.granted', { ...common, source: 'gift' })
    return { courseId, title: line.title }
  })
}
