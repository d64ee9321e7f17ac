// Gifts (issue 32): who a gift order is for, when its e-mail goes out, and its single-use claim link. promotions/ is
// the only writer of `gifts`. The claim token exists only in the e-mail: the row keeps its SHA-256, a resend replaces
// it (the old link dies), and a claimed gift is never claimed again, so a link works once. Conditional updates make each step happen once
// however many requests or sweeps race.
import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { randomToken, sha256Hex } from '../kernel/random-token.ts'

export const GIFT_MESSAGES = {
  badLink: 'This gift link is not valid. Ask the sender to resend the gift.',
  claimed: 'This gift has already been claimed.',
  refunded: 'This gift was refunded, so it can no longer be claimed.',
  notFound: 'Gift not found',
  notWaiting: 'This gift is no longer waiting for you: it was claimed, refunded or sent to another address.',
  notResendable: 'Only a paid gift that has not been claimed can be resent.',
  notClaimable: 'This gift cannot be claimed right now. Please contact support.',
  tooManyResends: 'You have resent gifts several times in the last hour. Please try again later.',
  alreadyOwned: 'You already have this course, so the gift stays unclaimed: its sender can give it to someone else.',
  paysForPremium:
    'You already pay for Premium, so this gift would run alongside it. Cancel your renewal (Account → Membership), then claim the gift: it starts when your paid time ends. This link keeps working.',
} as const

const giftColumns = [
  'id',
  'order_id',
  'order_item_id',
  'buyer_id',
  'recipient_email',
  'message',
  'send_at',
  'link_origin',
  'paid_at',
  'mailed_at',
  'mail_count',
  'claimed_by',
  'claimed_at',
  'plan_months',
  'recipient_owned_at',
  'recipient_account_id',
  'created_at',
] as const

export function hashClaimToken(token: string): string {
  return sha256Hex(token)
}

export interface NewGift {
  orderId: string
  orderItemId: string
  buyerId: string
  recipientEmail: string
  message: string
  sendAt: Date
  linkOrigin: string
  /** A gifted plan's prepaid term in months. */
  planMonths?: number | null
}

export async function createGift(trx: DB, gift: NewGift): Promise<{ id: string }> {
  return trx
    .insertInto('gifts')
    .values({
      order_id: gift.orderId,
      order_item_id: gift.orderItemId,
      buyer_id: gift.buyerId,
      recipient_email: gift.recipientEmail,
      message: gift.message,
      send_at: gift.sendAt,
      link_origin: gift.linkOrigin.replace(/\/$/, ''),
      plan_months: gift.planMonths ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

/** The gift an order pays for (undefined: an ordinary order). */
export function giftOfOrder(db: DB, orderId: string) {
  return db.selectFrom('gifts').select(giftColumns).where('order_id', '=', orderId).executeTakeFirst()
}

export type Gift = NonNullable<Awaited<ReturnType<typeof giftOfOrder>>>

/** The order was paid: the gift now waits for its send date. Once only (a replayed payment changes nothing). */
export async function markGiftPaid(trx: DB, orderId: string, paidAt: Date): Promise<Gift | undefined> {
  return trx
    .updateTable('gifts')
    .set({ paid_at: paidAt, updated_at: clock.now() })
    .where('order_id', '=', orderId)
    .where('paid_at', 'is', null)
    .returning(giftColumns)
    .executeTakeFirst()
}

/**
 * A new claim link for the gift (its first e-mail, or a resend): the token comes back once, for the e-mail; any
 * earlier link stops working. `onlyFirst`: only when no e-mail went out yet, so two sweeps at once send one e-mail.
 * Null when the gift is not paid, already claimed, or (onlyFirst) already mailed.
 */
export async function issueClaimLink(
  trx: DB,
  giftId: string,
  options: { onlyFirst: boolean; recipientEmail?: string },
  now = clock.now(),
): Promise<{ token: string; gift: Gift } | null> {
  const token = randomToken(25) // 200 bits: not guessable
  let query = trx
    .updateTable('gifts')
    .set((eb) => ({
      token_hash: hashClaimToken(token),
      mailed_at: now,
      mail_count: eb('mail_count', '+', 1),
      updated_at: now,
      // Another address: whether the earlier one already held the course no longer says anything, and a gift the
      // giver sends elsewhere no longer follows the account that moved away from the first one (decision 0163).
      ...(options.recipientEmail
        ? {
            recipient_email: options.recipientEmail,
            recipient_owned_at: null,
            recipient_account_id: eb
              .case()
              .when('recipient_email', '=', options.recipientEmail)
              .then(eb.ref('recipient_account_id'))
              .else(null)
              .end(),
          }
        : {}),
    }))
    .where('id', '=', giftId)
    .where('paid_at', 'is not', null)
    .where('claimed_at', 'is', null)
  if (options.onlyFirst) query = query.where('mailed_at', 'is', null)
  const gift = await query.returning(giftColumns).executeTakeFirst()
  return gift ? { token, gift } : null
}

/** A corrected address for a gift whose e-mail has not gone out yet (it goes to the new address at its date). */
export async function changeRecipient(trx: DB, giftId: string, recipientEmail: string): Promise<boolean> {
  const result = await trx
    .updateTable('gifts')
    .set((eb) => ({
      recipient_email: recipientEmail,
      recipient_owned_at: null,
      recipient_account_id: eb
        .case()
        .when('recipient_email', '=', recipientEmail)
        .then(eb.ref('recipient_account_id'))
        .else(null)
        .end(),
      updated_at: clock.now(),
    }))
    .where('id', '=', giftId)
    .where('claimed_at', 'is', null)
    .where('mailed_at', 'is', null)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Paid gifts whose e-mail is due and has not gone out. */
export function listDueGifts(db: DB, now = clock.now(), limit = 200) {
  return db
    .selectFrom('gifts')
    .select(['id'])
    .where('paid_at', 'is not', null)
    .where('mailed_at', 'is', null)
    .where('claimed_at', 'is', null)
    .where('send_at', '<=', now)
    .orderBy('send_at')
    .limit(limit)
    .execute()
}

/** The gift a claim link names (its claim page's read); undefined for an unknown or replaced link. */
export function findGiftByToken(db: DB, token: string) {
  return db.selectFrom('gifts').select(giftColumns).where('token_hash', '=', hashClaimToken(token)).executeTakeFirst()
}

/** The gift a claim link names, locked for the claim; undefined for an unknown, used or replaced link. */
export function lockGiftByToken(trx: Transaction<Database>, token: string) {
  return trx
    .selectFrom('gifts')
    .select(giftColumns)
    .where('token_hash', '=', hashClaimToken(token))
    .forUpdate()
    .executeTakeFirst()
}

/** The account a gift can wait for: its id and its verified address. */
export type GiftRecipientAccount = { id: string; email: string }

/**
 * The gifts waiting for an account (decision 0146): mailed (its send date came, so no surprise is spoiled), not
 * claimed, on a paid order whose line was not given back; sent to its address, unless they follow another account
 * that moved away from that address, or sent to an address it moved away from (decision 0163). Addresses are stored
 * lower-cased.
 */
function waitingGifts(db: DB, account: GiftRecipientAccount) {
  return db
    .selectFrom('gifts')
    .innerJoin('orders as o', 'o.id', 'gifts.order_id')
    .innerJoin('order_items as oi', 'oi.id', 'gifts.order_item_id')
    .where((eb) =>
      eb.or([
        eb('gifts.recipient_account_id', '=', account.id),
        eb.and([
          eb('gifts.recipient_email', '=', account.email.trim().toLowerCase()),
          eb('gifts.recipient_account_id', 'is', null),
        ]),
      ]),
    )
    .where('gifts.claimed_at', 'is', null)
    .where('gifts.mailed_at', 'is not', null)
    .where('gifts.paid_at', 'is not', null)
    .where('o.status', '=', 'paid')
    .where('oi.refund_id', 'is', null)
}

/** The gifts waiting for an account, oldest first. */
export function listWaitingGifts(db: DB, account: GiftRecipientAccount) {
  return waitingGifts(db, account)
    .select(giftColumns.map((column) => `gifts.${column}` as const))
    .orderBy('gifts.mailed_at')
    .limit(20)
    .execute()
}

/** One gift waiting for the account, locked for its claim; undefined when it is not (or no longer) waiting for it. */
export function lockWaitingGift(trx: Transaction<Database>, giftId: string, account: GiftRecipientAccount) {
  return waitingGifts(trx, account)
    .select(giftColumns.map((column) => `gifts.${column}` as const))
    .where('gifts.id', '=', giftId)
    .forUpdate('gifts')
    .executeTakeFirst()
}

/**
 * A claim found that the claiming account already holds the gifted course: the gift stays unclaimed. True the first
 * time only (the giver is told once; a resend to another address clears it).
 */
export async function markRecipientOwns(trx: DB, giftId: string, now = clock.now()): Promise<boolean> {
  const result = await trx
    .updateTable('gifts')
    .set({ recipient_owned_at: now, updated_at: now })
    .where('id', '=', giftId)
    .where('claimed_at', 'is', null)
    .where('recipient_owned_at', 'is', null)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** The gifts of these orders (order history, refunds): who each is for and whether it was claimed. */
export function giftsOfOrders(db: DB, orderIds: readonly string[]) {
  if (orderIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('gifts')
    .select(['order_id', 'order_item_id', 'buyer_id', 'recipient_email', 'send_at', 'claimed_by', 'claimed_at'])
    .where('order_id', 'in', [...orderIds])
    .execute()
}

/** The gift an order line is (undefined: not a gift). */
export function giftOfOrderItem(db: DB, orderItemId: string) {
  return db
    .selectFrom('gifts')
    .select(['recipient_email', 'claimed_at'])
    .where('order_item_id', '=', orderItemId)
    .executeTakeFirst()
}

/** The buyer's gift, locked (resend, refund). */
export function lockBuyerGift(trx: Transaction<Database>, giftId: string, buyerId: string) {
  return trx
    .selectFrom('gifts')
    .select(giftColumns)
    .where('id', '=', giftId)
    .where('buyer_id', '=', buyerId)
    .forUpdate()
    .executeTakeFirst()
}

/**
 * The claim. The link's hash stays so that using it again is told "already claimed" (it can claim nothing: a claimed
 * gift is never claimed again). False when it was claimed meanwhile.
 */
export async function markClaimed(trx: DB, giftId: string, userId: string, now = clock.now()): Promise<boolean> {
  const result = await trx
    .updateTable('gifts')
    .set({ claimed_by: userId, claimed_at: now, updated_at: now })
    .where('id', '=', giftId)
    .where('claimed_at', 'is', null)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** The buyer's gifts with the order and course facts they need (newest first). */
export function listBuyerGifts(db: DB, buyerId: string) {
  return db
    .selectFrom('gifts as g')
    .innerJoin('orders as o', 'o.id', 'g.order_id')
    .innerJoin('order_items as oi', 'oi.id', 'g.order_item_id')
    .select([
      'g.id',
      'g.recipient_email',
      'g.message',
      'g.send_at',
      'g.paid_at',
      'g.mailed_at',
      'g.claimed_at',
      'g.created_at',
      'o.reference',
      'o.status as order_status',
      'o.total_minor',
      'o.currency',
      'oi.title',
      'oi.course_id',
      'oi.plan_id',
      'g.plan_months',
      'g.recipient_owned_at',
      'oi.refunded_at',
    ])
    .where('g.buyer_id', '=', buyerId)
    .orderBy('g.created_at', 'desc')
    .limit(200)
    .execute()
}

/**
 * An account moved away from its verified address `oldEmail` (decision 0163): the gifts sent or to be sent there and
 * not claimed follow it (they wait for it and are mailed to its new address), so neither a gift lost with a closed
 * mailbox nor one due later is lost, and whoever takes the old address next does not find them. The giver's record
 * keeps the address they typed.
 */
export async function followMovedAccount(trx: DB, userId: string, oldEmail: string): Promise<void> {
  await trx
    .updateTable('gifts')
    .set({ recipient_account_id: userId, updated_at: clock.now() })
    .where('recipient_email', '=', oldEmail.trim().toLowerCase())
    .where('recipient_account_id', 'is', null)
    .where('claimed_at', 'is', null)
    .execute()
}

/** The gifts an erased person claimed no longer name their address (the buyer's record keeps the gift). */
export async function forgetClaimedGiftAddresses(trx: DB, userId: string, replacement: string): Promise<void> {
  await trx
    .updateTable('gifts')
    .set({ recipient_email: replacement, updated_at: clock.now() })
    .where('claimed_by', '=', userId)
    .execute()
}
