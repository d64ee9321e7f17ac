// A gift's e-mail and claim (issue 32). Paying a gift order enrols nobody: the gift waits for its send date, then one
// e-mail with a single-use claim link goes out through the outbox (at payment when it is already due, else from the
// scheduled sweep: once even if the sweep runs twice). Claiming grants the course to the claiming account, from the
// gift's order line, so refunding that line revokes the recipient's access like any refund does; the recipient is then
// told (giftsGivenBack). A course the claiming account already holds is not claimed: the gift stays the giver's to give
// elsewhere, and the giver is told. A signed-in account also finds the gifts mailed to its verified address without the
// link (decision 0146).

import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import { formatDate } from '../../src-shared/dates.ts'
import { giftedMembershipWords } from '../../src-shared/membership.ts'
import { lineNetMinor } from '../../src-shared/money.ts'
import { ownsCourse } from '../access/courses.ts'
import { grant } from '../access/ledger.ts'
import { loadMe } from '../auth/me.ts'
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
  giftsOfOrders,
  issueClaimLink,
  listDueGifts,
  listWaitingGifts,
  lockGiftByToken,
  lockWaitingGift,
  markClaimed,
  markGiftPaid,
  markRecipientOwns,
} from '../promotions/gifts.ts'
import { findPlan } from '../subscriptions/plans.ts'
import { premiumGrantedUntil } from '../subscriptions/premium.ts'
import { liveSubscriptionOf } from '../subscriptions/repository.ts'
import { userContact } from '../users/contact.ts'
import { brandOfOrderLines } from './school-domain.ts'
import { emitCourseEvent, emitEnrolmentGranted } from './webhook-events.ts'

/** The gift's line and who sent it, as its e-mail and its claim page name them. */
async function giftWords(db: DB, gift: Gift) {
  const line = (await listOrderLines(db, gift.order_id)).find((l) => l.id === gift.order_item_id)
  const buyer = await userContact(db, gift.buyer_id)
  const from = [buyer?.first_name, buyer?.last_name].filter(Boolean).join(' ') || 'Someone'
  // A gifted plan is named by its plan ("a Pro membership for 3 months"), not by its line's title, which already
  // holds the term ("Pro membership: 3 months") and read twice over in a sentence.
  const plan = line?.plan_id && gift.plan_months !== null ? await findPlan(db, line.plan_id) : undefined
  return { line, from, planName: plan?.name ?? null }
}

/** The e-mail with the claim link; the token is in its text only (the row keeps a hash). */
export async function mailGift(trx: DB, gift: Gift, token: string): Promise<void> {
  const { line, from, planName } = await giftWords(trx, gift)
  // A gift of a white-label school's course comes under the school's name (decision 0063).
  const brand = line ? await brandOfOrderLines(trx, [line]) : null
  const site = brand?.displayName ?? 'SkillForge'
  const link = `${gift.link_origin}/gifts/claim?token=${token}`
  const message = gift.message ? `\n\nTheir message:\n${gift.message}\n` : '\n'
  const plan = gift.plan_months !== null
  const membership = giftedMembershipWords(planName, gift.plan_months)
  const what = plan ? membership : `the course "${line?.title ?? ''}"`
  const starts = plan
    ? ' Your membership starts the day you claim it (if you already have Premium, the day that ends).'
    : ''
  // A gift following an account that moved away from its address goes to the account's address now (decision 0163).
  const followed = gift.recipient_account_id ? await userContact(trx, gift.recipient_account_id) : undefined
  await enqueueMail(trx, {
    kind: 'gift',
    to: followed?.email ?? gift.recipient_email,
    subject: plan ? `${from} sent you ${membership}` : `${from} sent you a course: ${line?.title ?? 'a gift'}`,
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

/** Why a claim of the gift would be refused, in the claim's own words; null while it can be claimed. */
function refusalOf(gift: Gift, order: { status: string }, line: { refund_id: string | null }): string | null {
  if (gift.claimed_at) return GIFT_MESSAGES.claimed
  if (line.refund_id || order.status === 'refunded') return GIFT_MESSAGES.refunded
  return null
}

/** The gift as the claim page and "a gift waiting for you" show it. */
async function describeGift(db: DB, gift: Gift, userId: string | null) {
  const { line, from, planName } = await giftWords(db, gift)
  if (!line) return null
  // The signed-in person already holds the gifted course: claiming it would give them nothing (decision 0146).
  const owned = Boolean(userId && line.course_id && (await ownsCourse(db, userId, line.course_id)))
  return {
    kind: line.course_id ? ('course' as const) : ('membership' as const),
    title: line.title,
    planName,
    planMonths: gift.plan_months,
    from,
    message: gift.message,
    owned,
    line,
  }
}

/**
 * What the claim page shows before the claim (to a visitor too: the link is the recipient's): the gift, its sender and
 * message, whether it can still be claimed, and whether the signed-in person already holds its course. The same
 * refusal as a claim for a link that names no gift.
 */
export async function giftPreview(db: DB, token: string, userId: string | null = null) {
  const gift = await findGiftByToken(db, token)
  const order = gift
    ? await db.selectFrom('orders').select('status').where('id', '=', gift.order_id).executeTakeFirst()
    : null
  if (!gift || !order) throw new DomainError('not_found', GIFT_MESSAGES.badLink)
  const described = await describeGift(db, gift, userId)
  if (!described) throw new DomainError('not_found', GIFT_MESSAGES.badLink)
  const { line, ...shown } = described
  return { ...shown, refusal: refusalOf(gift, order, line) }
}

/** The recipient claims the gift with the link's token: the course is theirs, once. */
export async function claimGift(db: DB, userId: string, token: string) {
  return inTransaction(db, async (trx) => {
    const gift = await lockGiftByToken(trx, token)
    if (!gift) throw new DomainError('not_found', GIFT_MESSAGES.badLink)
    return claimLockedGift(trx, gift, userId)
  })
}

/**
 * The gifts waiting for the signed-in account (decision 0146): mailed to its verified address and not claimed. Found
 * without the link, so a recipient who lost the claim page on the way through sign-up and e-mail verification (the
 * link's token is kept in the tab it opened) still finds the gift.
 */
export async function giftsWaitingFor(db: DB, userId: string) {
  const me = await loadMe(db, userId)
  if (!me?.emailVerified) return []
  const waiting = []
  for (const gift of await listWaitingGifts(db, { id: userId, email: me.email })) {
    const described = await describeGift(db, gift, userId)
    // Told already that they hold its course (and its giver with them): it waits for its giver, not for them.
    if (!described || (described.owned && gift.recipient_owned_at)) continue
    const { line: _line, ...shown } = described
    waiting.push({ id: gift.id, ...shown })
  }
  return waiting
}

/** A gift waiting for the account's verified address, claimed without its link (decision 0146). */
export async function claimWaitingGift(db: DB, userId: string, giftId: string) {
  return inTransaction(db, async (trx) => {
    const me = await loadMe(trx, userId)
    const gift = me?.emailVerified ? await lockWaitingGift(trx, giftId, { id: userId, email: me.email }) : undefined
    if (!gift) throw new DomainError('not_found', GIFT_MESSAGES.notWaiting)
    return claimLockedGift(trx, gift, userId)
  })
}

/** The claim of a gift locked by the caller: its course or its Premium term is the account's, once. */
async function claimLockedGift(trx: Transaction<Database>, gift: Gift, userId: string) {
  if (gift.claimed_at) throw new DomainError('conflict', GIFT_MESSAGES.claimed)
  // The order under its lock: a refund racing this claim either comes first (refused here) or revokes after.
  const order = await lockOrder(trx, gift.order_id)
  const line = (await listOrderLines(trx, gift.order_id)).find((l) => l.id === gift.order_item_id)
  if (!order || !line || !(line.course_id || (line.plan_id && gift.plan_months)))
    throw new DomainError('not_found', GIFT_MESSAGES.badLink)
  if (line.refund_id || order.status === 'refunded') throw new DomainError('conflict', GIFT_MESSAGES.refunded)
  if (order.status !== 'paid') throw new DomainError('conflict', GIFT_MESSAGES.notClaimable)
  const now = clock.now()
  const source = { kind: 'order_item', orderId: gift.order_id, orderItemId: gift.order_item_id } as const
  if (!line.course_id && line.plan_id && gift.plan_months) {
    // A prepaid term is never spent alongside Premium the recipient pays for or already holds: it follows it.
    const startsAt = await giftedTermStart(trx, userId, now)
    if (!(await markClaimed(trx, gift.id, userId, now))) throw new DomainError('conflict', GIFT_MESSAGES.claimed)
    // A gifted plan: Premium for the prepaid term, then it ends (no renewal, nothing to cancel). Its source is the
    // gift's order line, so a refund of the gift revokes it as any refund does.
    const endsAt = addMonths(startsAt, gift.plan_months)
    await grant(trx, { userId, right: { kind: 'premium' }, source, startsAt, endsAt })
    const plan = await findPlan(trx, line.plan_id)
    return {
      planId: line.plan_id,
      title: line.title,
      planName: plan?.name ?? null,
      startsAt: startsAt.toISOString(),
      endsAt: endsAt.toISOString(),
    }
  }
  const courseId = line.course_id!
  if (await ownsCourse(trx, userId, courseId, now)) {
    // Already theirs (bought, given, enrolled): the gift would buy nothing. It stays unclaimed, so its link keeps
    // working and the giver can resend it to someone else or ask for a refund; the giver is told once.
    if (await markRecipientOwns(trx, gift.id, now)) await mailGiverRecipientOwns(trx, gift, line.title)
    return { alreadyOwned: true as const, courseId, title: line.title }
  }
  if (!(await markClaimed(trx, gift.id, userId, now))) throw new DomainError('conflict', GIFT_MESSAGES.claimed)
  const { id, created } = await grant(trx, { userId, right: { kind: 'course', courseId }, source, startsAt: now })
  const common = { learnerId: userId, orderId: gift.order_id, orderItemId: gift.order_item_id, giftId: gift.id }
  await emitCourseEvent(trx, courseId, 'gift.claimed', { ...common, buyerId: gift.buyer_id })
  // The API lists the recipient's enrolment as a purchase (its source is the gift's order line): so does the event.
  if (created) await emitEnrolmentGranted(trx, courseId, { id, source: 'order_item' }, common)
  return { courseId, title: line.title }
}

/** The giver hears that the gift's recipient already had the course: what they can do with it now. */
async function mailGiverRecipientOwns(trx: DB, gift: Gift, title: string) {
  const buyer = await userContact(trx, gift.buyer_id)
  if (!buyer) return
  await enqueueMail(trx, {
    kind: 'gift_recipient_owns',
    to: buyer.email,
    subject: `${gift.recipient_email} already has ${title}`,
    text: `Hi ${buyer.first_name || 'there'},\n\n${gift.recipient_email} opened your gift of "${title}", but they already have that course, so the gift was not used: nothing was added to their account and the gift is still yours.\n\nYou can give it to someone else (My Account → Gifts you bought → Resend to another address), or ask for a refund within 30 days of your purchase (My Account → Orders → Request a refund).`,
  })
}

/**
 * A refund (or a lost dispute) gave back gift lines: whoever claimed each is told that the gift ended and why they
 * lost the course or the membership. Unclaimed gifts have nobody to tell: their link now says the gift was refunded.
 */
export async function giftsGivenBack(
  trx: DB,
  orderId: string,
  lines: readonly { id: string; title: string }[],
  cause: 'refund' | 'dispute',
): Promise<void> {
  const ids = new Set(lines.map((line) => line.id))
  const gifts = (await giftsOfOrders(trx, [orderId])).filter((gift) => ids.has(gift.order_item_id) && gift.claimed_by)
  for (const gift of gifts) {
    const [recipient, buyer] = await Promise.all([userContact(trx, gift.claimed_by!), userContact(trx, gift.buyer_id)])
    if (!recipient) continue
    const from = [buyer?.first_name, buyer?.last_name].filter(Boolean).join(' ') || 'The person who gave it to you'
    const title = lines.find((line) => line.id === gift.order_item_id)!.title
    const why =
      cause === 'refund'
        ? `${from} asked for their money back and it was refunded to them`
        : `the payment ${from} made for it was reversed by their bank`
    await enqueueMail(trx, {
      kind: 'gift_refunded',
      to: recipient.email,
      subject: `Your gift "${title}" has ended`,
      text: `Hi ${recipient.first_name || 'there'},\n\nThe gift "${title}" you claimed on ${formatDate(gift.claimed_at!)} has ended: ${why}. It is no longer available in your account.\n\nAnything else in your account is unchanged.`,
    })
  }
}

/** Who each gift among these orders is for, and whether they claimed it (order history, refund requests). */
export async function giftRecipients(db: DB, orderIds: readonly string[]) {
  const gifts = await giftsOfOrders(db, orderIds)
  return new Map(
    gifts.map((gift) => [
      gift.order_item_id,
      {
        orderId: gift.order_id,
        recipientEmail: gift.recipient_email,
        sendAt: gift.send_at.toISOString(),
        claimedAt: gift.claimed_at?.toISOString() ?? null,
      },
    ]),
  )
}
