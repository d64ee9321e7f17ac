// The payment processor's fees on creators' sales (decision 0047). Stripe's fee on a payment is known only once its
// charge has a balance transaction, which is read after the payment's transaction: so a line paid through Stripe is
// credited at the sale with its fee still due, and the fee is taken later, once, as its own balanced posting
// (`processor_fee:<line>`). The share row and its parts are lowered by what was taken in the same transaction, so a
// hold release or a reversal afterwards moves exactly what the creators were left with. A chargeback fee (a lost
// dispute) is taken the same way (`chargeback_fee:<line>:<dispute>`), from available.
import { sql } from 'kysely'
import { allocate } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import { isPosted, type LedgerEntry, post } from './ledger.ts'
import { lockShares, reversalKey, type ShareRow, shareAccount } from './shares.ts'

export const processorFeeKey = (orderItemId: string) => `processor_fee:${orderItemId}`
export const chargebackFeeKey = (orderItemId: string, disputeId: string) => `chargeback_fee:${orderItemId}:${disputeId}`

/**
 * A payment's fee over the lines it paid, pro rata by their net by largest remainder: the parts sum to the fee.
 * Lines with no net take nothing; when no line has a net the map is empty.
 */
export function allocateByNet(
  feeMinor: number,
  lines: readonly { id: string; netMinor: number }[],
): Map<string, number> {
  const paid = lines.filter((line) => line.netMinor > 0)
  const parts = allocate(
    feeMinor,
    paid.map((line) => line.netMinor),
  )
  return new Map(paid.map((line, index) => [line.id, parts[index] ?? 0]))
}

/** Orders with a share still waiting for Stripe's fee, paid since `since` (oldest first). */
export async function ordersWithFeeDue(db: DB, since: Date, limit = 100): Promise<string[]> {
  const rows = await db
    .selectFrom('earning_shares')
    .select('order_id')
    .where('processor_fee_due', '=', true)
    .where('created_at', '>=', since)
    .groupBy('order_id')
    .orderBy(sql`min(created_at)`)
    .limit(limit)
    .execute()
  return rows.map((row) => row.order_id)
}

/** Whether any share of the order waits for Stripe's fee. */
export async function hasFeeDue(db: DB, orderId: string): Promise<boolean> {
  const row = await db
    .selectFrom('earning_shares')
    .select('order_item_id')
    .where('order_id', '=', orderId)
    .where('processor_fee_due', '=', true)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Takes the processor's fee of the order's lines still waiting for it: `partOf` gives each line's part of the
 * payment's fee. The creators carry their line's part (at most what the line left them, split among co-instructors
 * like the share), from where the share sits (`shareAccount`: pending inside the hold or a dispute's, else available); a line reversed meanwhile carries
 * nothing (the platform does, as it does for a refund). Runs in the caller's transaction; a line taken before is
 * skipped. Returns how many lines were settled.
 */
export async function takeProcessorFees(
  trx: DB,
  orderId: string,
  partOf: ReadonlyMap<string, number>,
  source: string,
): Promise<number> {
  const due = await trx
    .selectFrom('earning_shares')
    .select('order_item_id')
    .where('order_id', '=', orderId)
    .where('processor_fee_due', '=', true)
    .execute()
  let settled = 0
  for (const share of await lockShares(
    trx,
    due.map((row) => row.order_item_id),
  )) {
    const id = share.order_item_id
    const still = await trx
      .selectFrom('earning_shares')
      .select('processor_fee_due')
      .where('order_item_id', '=', id)
      .executeTakeFirstOrThrow()
    if (!still.processor_fee_due) continue
    const fee = partOf.get(id) ?? 0
    const reversed = await isPosted(trx, reversalKey(id))
    const charged = reversed ? 0 : Math.min(fee, share.creator_minor)
    const account = await shareAccount(trx, share)
    const taken = takeFromParts(share, charged)
    await post(trx, {
      key: processorFeeKey(id),
      kind: 'processor_fee',
      source,
      memo: 'Card processing fee',
      entries: [
        { account: 'processor_fees', currency: share.currency, amountMinor: fee },
        { account: 'platform_fees', currency: share.currency, amountMinor: -(fee - charged) },
        ...taken.map(
          (part): LedgerEntry => ({
            account,
            creatorId: part.creator_id,
            currency: share.currency,
            amountMinor: -part.amount,
          }),
        ),
      ],
    })
    if (charged > 0) {
      await trx
        .updateTable('earning_shares')
        .set({
          processor_fee_minor: sql`processor_fee_minor + ${charged}`,
          creator_minor: sql`creator_minor - ${charged}`,
        })
        .where('order_item_id', '=', id)
        .execute()
      for (const part of taken) {
        await trx
          .updateTable('earning_share_parts')
          .set({ creator_minor: sql`creator_minor - ${part.amount}` })
          .where('order_item_id', '=', id)
          .where('creator_id', '=', part.creator_id)
          .execute()
      }
    }
    await trx.updateTable('earning_shares').set({ processor_fee_due: false }).where('order_item_id', '=', id).execute()
    settled++
  }
  return settled
}

/**
 * A lost dispute's chargeback fee over the lines it gave back (`partOf`: each line's part, allocated by net): each
 * creator line's part is taken from its creators' available balance (at most the share the dispute reversed; the
 * platform carries the rest), once per dispute and line. Runs in the caller's transaction.
 */
export async function takeChargebackFees(
  trx: DB,
  disputeId: string,
  partOf: ReadonlyMap<string, number>,
): Promise<number> {
  let taken = 0
  for (const share of await lockShares(trx, [...partOf.keys()])) {
    const fee = partOf.get(share.order_item_id) ?? 0
    if (fee <= 0) continue
    const charged = Math.min(fee, share.creator_minor)
    const posted = await post(trx, {
      key: chargebackFeeKey(share.order_item_id, disputeId),
      kind: 'processor_fee',
      source: `dispute:${disputeId}`,
      memo: 'Chargeback fee (dispute lost)',
      entries: [
        { account: 'processor_fees', currency: share.currency, amountMinor: fee },
        { account: 'platform_fees', currency: share.currency, amountMinor: -(fee - charged) },
        ...takeFromParts(share, charged).map(
          (part): LedgerEntry => ({
            account: 'creator_available',
            creatorId: part.creator_id,
            currency: share.currency,
            amountMinor: -part.amount,
          }),
        ),
      ],
    })
    if (posted) taken++
  }
  return taken
}

/** `amount` split over a share's creators by what each was credited (largest remainder; none above its part). */
function takeFromParts(share: ShareRow, amount: number) {
  if (amount <= 0 || share.parts.length === 0) return []
  const amounts = allocate(
    amount,
    share.parts.map((part) => part.creator_minor),
  )
  return share.parts.map((part, index) => ({ creator_id: part.creator_id, amount: amounts[index] ?? 0 }))
}
