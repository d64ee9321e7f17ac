// A gift's e-mail and claim (issue 32). Paying a gift order enrols nobody: the gift waits for its send date, then one
// e-mail with a single-use claim link goes out through the outbox (at payment when it is already due, else from the
// scheduled sweep: once even if the sweep runs twice). Claiming grants the course to the claiming account, from the
// gift's order line, so refunding that line revokes the recipient's access like any refund does.
import { grant } from '../access/ledger.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { buyerContact } from '../orders/buyer.ts'
import { inTransaction, lockOrder } from '../orders/lock.ts'
import { listOrderLines } from '../orders/repository.ts'
import {
  GIFT_MESSAGES,
  type Gift,
  giftOfOrder,
  issueClaimLink,
  listDueGifts,
  lockGiftByToken,
  markClaimed,
  markGiftPaid,
} from '../promotions/gifts.ts'

/** The e-mail with the claim link; the token is in its text only (the row keeps a hash). */
export async function mailGift(trx: DB, gift: Gift, token: string): Promise<void> {
  const [line] = await listOrderLines(trx, gift.order_id)
  const buyer = await buyerContact(trx, gift.buyer_id)
  const from = [buyer?.first_name, buyer?.last_name].filter(Boolean).join(' ') || 'Someone'
  const link = `${gift.link_origin}/gifts/claim?token=${token}`
  const message = gift.message ? `\n\nTheir message:\n${gift.message}\n` : '\n'
  await enqueueMail(trx, {
    kind: 'gift',
    to: gift.recipient_email,
    subject: `${from} sent you a course: ${line?.title ?? 'a gift'}`,
    text: `Hi,\n\n${from} has given you the course "${line?.title ?? ''}" on SkillForge.${message}\nClaim your gift (sign up or log in, then it is yours): ${link}\n\nThe link works once. If you were not expecting this, you can ignore this e-mail.`,
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
  if (paid && paid.send_at.getTime() <= paidAt.getTime()) {
    const link = await issueClaimLink(trx, paid.id, { onlyFirst: true }, paidAt)
    if (link) await mailGift(trx, link.gift, link.token)
  }
  return true
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

/** The recipient claims the gift with the link's token: the course is theirs, once. */
export async function claimGift(db: DB, userId: string, token: string) {
  return inTransaction(db, async (trx) => {
    const gift = await lockGiftByToken(trx, token)
    if (!gift) throw new DomainError('not_found', GIFT_MESSAGES.badLink)
    if (gift.claimed_at) throw new DomainError('conflict', GIFT_MESSAGES.claimed)
    // The order under its lock: a refund racing this claim either comes first (refused here) or revokes after.
    const order = await lockOrder(trx, gift.order_id)
    const line = (await listOrderLines(trx, gift.order_id)).find((l) => l.id === gift.order_item_id)
    if (!order || !line?.course_id) throw new DomainError('not_found', GIFT_MESSAGES.badLink)
    if (line.refund_id || order.status === 'refunded') throw new DomainError('conflict', GIFT_MESSAGES.refunded)
    if (order.status !== 'paid') throw new DomainError('conflict', GIFT_MESSAGES.notClaimable)
    const now = clock.now()
    if (!(await markClaimed(trx, gift.id, userId, now))) throw new DomainError('conflict', GIFT_MESSAGES.claimed)
    await grant(trx, {
      userId,
      right: { kind: 'course', courseId: line.course_id },
      source: { kind: 'order_item', orderId: gift.order_id, orderItemId: gift.order_item_id },
      startsAt: now,
    })
    return { courseId: line.course_id, title: line.title }
  })
}
