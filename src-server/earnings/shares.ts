// A creator's share of each paid course line: split once at the sale (platform fee of the plan in force, the
// processor's fee, the creator's rest), stored in earning_shares, posted to the ledger as pending, released after
// the refund window, and taken back — exactly the stored share — when the line is refunded or lost to a dispute.
// While a card dispute is open the share is held back (dispute-holds.ts): released or not, it sits in pending.
import { sql } from 'kysely'
import type { LedgerAccount } from '../../db/types.ts'
import { allocate, type Currency } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import { isPosted, type LedgerEntry, post } from './ledger.ts'

export interface Sale {
  orderItemId: string
  orderId: string
  courseId: string
  creatorId: string
  currency: Currency
  /** The line's net: after any discount, without tax. */
  netMinor: number
  feeBasisPoints: number
  planId: string | null
  paidAt: Date
  holdUntil: Date
  /** The line's part of the processor's fee, when known at the sale. */
  processorFeeMinor?: number
  /** Paid through Stripe: the processor's fee is taken once Stripe reports it (processor-fees.ts). */
  processorFeeDue?: boolean
  /**
   * Who shares the creators' part, in basis points summing to 10,000 (the course's instructors at the sale);
   * absent: the creator alone.
   */
  recipients?: readonly Recipient[]
}

export interface Recipient {
  creatorId: string
  basisPoints: number
}

/** Whom a creators' part (of a sale or a Premium pool share) is paid to: the recipients named, else the creator alone. */
interface Payee {
  creatorId: string
  recipients?: readonly Recipient[]
}

/** The creators' part split among the payee's recipients by largest remainder (no cent lost, none made up). */
export function splitAmongCreators(creatorMinor: number, payee: Payee): Part[] {
  const recipients = payee.recipients ?? [{ creatorId: payee.creatorId, basisPoints: 10_000 }]
  const paid = recipients.filter((recipient) => recipient.basisPoints > 0)
  const total = paid.reduce((sum, recipient) => sum + recipient.basisPoints, 0)
  if (total !== 10_000) throw new Error(`earnings: instructors' shares sum to ${total} basis points, not 10000`)
  const amounts = allocate(
    creatorMinor,
    paid.map((recipient) => recipient.basisPoints),
  )
  return paid.map((recipient, index) => ({
    creatorId: recipient.creatorId,
    basisPoints: recipient.basisPoints,
    creatorMinor: amounts[index] ?? 0,
  }))
}

interface Part extends Recipient {
  creatorMinor: number
}

/** The ledger entries crediting each creator's part to `account`. */
export function creditParts(parts: readonly Part[], account: LedgerAccount, currency: Currency): LedgerEntry[] {
  return parts.map((part) => ({ account, creatorId: part.creatorId, currency, amountMinor: part.creatorMinor }))
}

export interface Split {
  platformFeeMinor: number
  processorFeeMinor: number
  creatorMinor: number
}

/**
 * The line's split: the platform's fee is `basisPoints` of the net, the rest the creator's after the processor's fee;
 * both parts come from one largest-remainder allocation so they always sum to the net.
 */
export function splitLine(netMinor: number, basisPoints: number, processorFeeMinor = 0): Split {
  const [platformFeeMinor = 0, rest = 0] = allocate(netMinor, [basisPoints, 10_000 - basisPoints])
  const processor = Math.min(processorFeeMinor, rest)
  return { platformFeeMinor, processorFeeMinor: processor, creatorMinor: rest - processor }
}

const saleKey = (orderItemId: string) => `sale:${orderItemId}`
export const releaseKey = (orderItemId: string) => `release:${orderItemId}`
export const reversalKey = (orderItemId: string) => `reversal:${orderItemId}`

/** Stores the split and posts the creator's pending share; a second call for the same line changes nothing. */
export async function recordSale(trx: DB, sale: Sale): Promise<boolean> {
  const split = splitLine(sale.netMinor, sale.feeBasisPoints, sale.processorFeeMinor)
  const inserted = await trx
    .insertInto('earning_shares')
    .values({
      order_item_id: sale.orderItemId,
      order_id: sale.orderId,
      course_id: sale.courseId,
      creator_id: sale.creatorId,
      currency: sale.currency,
      net_minor: sale.netMinor,
      fee_basis_points: sale.feeBasisPoints,
      platform_fee_minor: split.platformFeeMinor,
      processor_fee_minor: split.processorFeeMinor,
      creator_minor: split.creatorMinor,
      plan_id: sale.planId,
      hold_until: sale.holdUntil,
      created_at: sale.paidAt,
      processor_fee_due: sale.processorFeeDue ?? false,
    })
    .onConflict((oc) => oc.column('order_item_id').doNothing())
    .returning('order_item_id')
    .executeTakeFirst()
  if (!inserted) return false
  const parts = splitAmongCreators(split.creatorMinor, sale)
  await trx
    .insertInto('earning_share_parts')
    .values(
      parts.map((part) => ({
        order_item_id: sale.orderItemId,
        creator_id: part.creatorId,
        share_basis_points: part.basisPoints,
        creator_minor: part.creatorMinor,
      })),
    )
    .execute()
  const { currency } = sale
  return post(trx, {
    key: saleKey(sale.orderItemId),
    kind: 'sale',
    source: `order_item:${sale.orderItemId}`,
    entries: [
      { account: 'customer_payments', currency, amountMinor: -sale.netMinor },
      { account: 'platform_fees', currency, amountMinor: split.platformFeeMinor },
      { account: 'processor_fees', currency, amountMinor: split.processorFeeMinor },
      ...creditParts(parts, 'creator_pending', currency),
    ],
  })
}

export type ShareRow = {
  order_item_id: string
  currency: Currency
  net_minor: number
  platform_fee_minor: number
  processor_fee_minor: number
  creator_minor: number
  /** The open dispute holding the share back (its part sits in pending until the dispute closes). */
  dispute_hold_id: string | null
  /** Each creator's part of creator_minor, as stored at the sale. */
  parts: { creator_id: string; creator_minor: number }[]
}

/** The share rows of these lines, locked so a reversal and a hold release of the same line never interleave. */
export async function lockShares(trx: DB, orderItemIds: readonly string[]): Promise<ShareRow[]> {
  if (orderItemIds.length === 0) return []
  const shares = await trx
    .selectFrom('earning_shares')
    .select([
      'order_item_id',
      'currency',
      'net_minor',
      'platform_fee_minor',
      'processor_fee_minor',
      'creator_minor',
      'dispute_hold_id',
    ])
    .where('order_item_id', 'in', orderItemIds)
    .orderBy('order_item_id')
    .forUpdate()
    .execute()
  if (shares.length === 0) return []
  const parts = await trx
    .selectFrom('earning_share_parts')
    .select(['order_item_id', 'creator_id', 'creator_minor'])
    .where(
      'order_item_id',
      'in',
      shares.map((share) => share.order_item_id),
    )
    .orderBy('creator_id')
    .execute()
  return shares.map((share) => ({
    ...share,
    parts: parts.filter((part) => part.order_item_id === share.order_item_id),
  }))
}

/**
 * Where a locked share's creators' part sits now: pending inside the refund window or while a dispute holds it back,
 * else available. Everything that takes from a share (a reversal, the processor's fee) takes from there.
 */
export async function shareAccount(trx: DB, share: ShareRow): Promise<'creator_pending' | 'creator_available'> {
  if (share.dispute_hold_id) return 'creator_pending'
  return (await isPosted(trx, releaseKey(share.order_item_id))) ? 'creator_available' : 'creator_pending'
}

/** The creator-side entries moving each part of a share (signed: + credits, − debits). */
export function partEntries(share: ShareRow, account: LedgerAccount, sign: 1 | -1): LedgerEntry[] {
  return share.parts.map((part) => ({
    account,
    creatorId: part.creator_id,
    currency: share.currency,
    amountMinor: sign * part.creator_minor,
  }))
}

/**
 * Takes back the creator's share of lines given back (a refund, or a lost dispute): exactly the stored share, from
 * pending while the refund window or a dispute holds it, else from available (which may go negative: later earnings repay it; a transfer is
 * never reversed for it). The platform gives back its fee and carries the processor's, which Stripe keeps.
 * Lines without a share (not a creator's course) are skipped; a line reversed before is not reversed again.
 */
export async function reverseShares(
  trx: DB,
  orderItemIds: readonly string[],
  kind: 'refund' | 'dispute',
  source: string,
): Promise<number> {
  if (orderItemIds.length === 0) return 0
  let reversed = 0
  for (const share of await lockShares(trx, orderItemIds)) {
    const { currency } = share
    const entries: LedgerEntry[] = [
      { account: 'customer_payments', currency, amountMinor: share.net_minor },
      { account: 'platform_fees', currency, amountMinor: -(share.platform_fee_minor + share.processor_fee_minor) },
      ...partEntries(share, await shareAccount(trx, share), -1),
    ]
    if (await post(trx, { key: reversalKey(share.order_item_id), kind, source, entries })) reversed++
  }
  return reversed
}

/**
 * Moves shares whose refund window has passed from pending to available (lines reversed meanwhile stay put, and
 * lines an open dispute holds back wait for it to close).
 */
export async function releaseDueHolds(db: DB, now: Date, limit = 500): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('earning_shares as s')
      .select('s.order_item_id')
      .where('s.hold_until', '<=', now)
      .where('s.dispute_hold_id', 'is', null)
      // Neither released nor reversed yet.
      .where(
        sql<boolean>`not exists (select 1 from ledger_transactions t
          where t.key in ('release:' || s.order_item_id, 'reversal:' || s.order_item_id))`,
      )
      .limit(limit)
      .execute()
    let released = 0
    for (const share of await lockShares(
      trx,
      due.map((row) => row.order_item_id),
    )) {
      // Read under the row lock: a dispute that held the line, or a refund that reversed it, since the select above.
      if (share.dispute_hold_id || (await isPosted(trx, reversalKey(share.order_item_id)))) continue
      const moved = await post(trx, {
        key: releaseKey(share.order_item_id),
        kind: 'hold_release',
        source: `order_item:${share.order_item_id}`,
        entries: [...partEntries(share, 'creator_pending', -1), ...partEntries(share, 'creator_available', 1)],
      })
      if (moved) released++
    }
    return released
  })
}
