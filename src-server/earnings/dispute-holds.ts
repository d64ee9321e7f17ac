// An open card dispute holds back the creators' shares of the order it disputes (decision 0125): the bank has taken
// the money back from the platform, so the shares must not be paid out until the dispute closes. A share still inside
// its refund window stays pending past it; one already released moves back from available to pending (a
// `dispute_hold` posting). When the dispute is won, or lost only in part (which the platform carries, decision 0047),
// the hold ends and what it moved goes back to available; a share the dispute took back stays reversed.
import type { DB } from '../kernel/db.ts'
import { isPosted, post } from './ledger.ts'
import { lockShares, partEntries, releaseKey, reversalKey } from './shares.ts'

const holdKey = (orderItemId: string, disputeId: string) => `dispute_hold:${orderItemId}:${disputeId}`
const holdEndKey = (orderItemId: string, disputeId: string) => `dispute_hold_end:${orderItemId}:${disputeId}`

/** Holds back the order's shares for the dispute (those not reversed nor held by another); returns how many. */
export async function holdSharesForDispute(trx: DB, orderId: string, disputeId: string): Promise<number> {
  const lines = await trx
    .selectFrom('earning_shares')
    .select('order_item_id')
    .where('order_id', '=', orderId)
    .where('dispute_hold_id', 'is', null)
    .execute()
  let held = 0
  for (const share of await lockShares(
    trx,
    lines.map((line) => line.order_item_id),
  )) {
    const line = share.order_item_id
    // Read under the row lock, so a hold release or a refund of the same line is either before or after this.
    if (share.dispute_hold_id || (await isPosted(trx, reversalKey(line)))) continue
    if (await isPosted(trx, releaseKey(line))) {
      await post(trx, {
        key: holdKey(line, disputeId),
        kind: 'dispute_hold',
        source: `dispute:${disputeId}`,
        entries: [...partEntries(share, 'creator_available', -1), ...partEntries(share, 'creator_pending', 1)],
      })
    }
    await trx
      .updateTable('earning_shares')
      .set({ dispute_hold_id: disputeId })
      .where('order_item_id', '=', line)
      .execute()
    held++
  }
  return held
}

/**
 * Ends the dispute's holds: a released share not taken back moves back to available (what it holds now: a processor's
 * fee taken meanwhile came out of pending too); the others just wait no longer. Returns how many ended.
 */
export async function endDisputeHold(trx: DB, disputeId: string): Promise<number> {
  const lines = await trx
    .selectFrom('earning_shares')
    .select('order_item_id')
    .where('dispute_hold_id', '=', disputeId)
    .execute()
  let ended = 0
  for (const share of await lockShares(
    trx,
    lines.map((line) => line.order_item_id),
  )) {
    const line = share.order_item_id
    if (share.dispute_hold_id !== disputeId) continue
    const released = await isPosted(trx, releaseKey(line))
    if (released && !(await isPosted(trx, reversalKey(line)))) {
      await post(trx, {
        key: holdEndKey(line, disputeId),
        kind: 'dispute_hold_end',
        source: `dispute:${disputeId}`,
        entries: [...partEntries(share, 'creator_pending', -1), ...partEntries(share, 'creator_available', 1)],
      })
    }
    await trx.updateTable('earning_shares').set({ dispute_hold_id: null }).where('order_item_id', '=', line).execute()
    ended++
  }
  return ended
}
