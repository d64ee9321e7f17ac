// A delivery's record (a note and files, for the whole order or one month's report); the buyer's answer to it:
// accept it (completed) or request a revision (within the package's allowance); and the scheduled completion of
// deliveries nobody answered within N days.

import { SERVICE_ORDER_MESSAGES } from '../../src-shared/service-orders.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { type Viewer, visibleOrder } from './access.ts'
import { addBusinessDays } from './due.ts'
import { attachFiles } from './files.ts'
import { type MailLinks, mailNewMessage, mailStatusToBuyer, mailStatusToStaff } from './mails.ts'
import { moveServiceOrder } from './transitions.ts'

/** What staff hand over: a note and files uploaded beforehand. */
export interface Delivery {
  note: string
  fileIds: string[]
}

/** Refuses a delivery with neither a note nor a file. */
export function assertDeliverable(delivery: Delivery): void {
  if (!delivery.note.trim() && delivery.fileIds.length === 0) {
    throw new DomainError('invalid', 'Add a note or a file to deliver')
  }
}

/** Records the delivery and attaches its files to it, in the caller's transaction; returns its id. */
export async function recordDelivery(trx: DB, orderId: string, actorId: string, delivery: Delivery): Promise<string> {
  const row = await trx
    .insertInto('service_order_deliveries')
    .values({ service_order_id: orderId, note: delivery.note.trim(), delivered_by: actorId })
    .returning('id')
    .executeTakeFirstOrThrow()
  await attachFiles(trx, orderId, actorId, delivery.fileIds, { delivery_id: row.id }, 'delivery')
  return row.id
}

const notDelivered = () => new DomainError('conflict', 'There is no delivery waiting for your answer')

export async function acceptDelivery(db: DB, viewer: Viewer, id: string, links: MailLinks, now = clock.now()) {
  await visibleOrder(db, id, viewer, 'buyer')
  await db.transaction().execute(async (trx) => {
    if (!(await moveServiceOrder(trx, id, 'accept', viewer.id, { completed_at: now }))) throw notDelivered()
    await mailStatusToStaff(trx, id, 'completed', links)
    await mailStatusToBuyer(trx, id, 'completed', links)
  })
}

/**
 * Sends the delivery back with what to change (posted to the thread). Counts against the package's revisions; the
 * order is due again the package's processing days later.
 */
export async function requestRevision(
  db: DB,
  viewer: Viewer,
  id: string,
  details: string,
  links: MailLinks,
  now = clock.now(),
) {
  await visibleOrder(db, id, viewer, 'buyer')
  if (!details.trim()) throw new DomainError('invalid', 'Tell us what to change')
  await db.transaction().execute(async (trx) => {
    // Read under the row lock: two clicks (or a click and an acceptance) see one another's result.
    const order = await trx
      .selectFrom('service_orders')
      .select(['status', 'revisions_used', 'revisions_allowed', 'processing_days'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirstOrThrow()
    if (order.status !== 'delivered') throw notDelivered()
    if (order.revisions_used >= order.revisions_allowed) {
      throw new DomainError('conflict', SERVICE_ORDER_MESSAGES.noRevisionsLeft)
    }
    const moved = await moveServiceOrder(trx, id, 'requestRevision', viewer.id, {
      revisions_used: order.revisions_used + 1,
      due_at: addBusinessDays(now, order.processing_days),
    })
    if (!moved) throw notDelivered()
    await trx
      .insertInto('service_order_messages')
      .values({
        service_order_id: id,
        author_id: viewer.id,
        from_staff: false,
        body: `Revision requested: ${details.trim()}`,
      })
      .execute()
    await mailNewMessage(trx, id, false, `Revision requested: ${details.trim()}`, links)
  })
}

/** Completes every delivery older than `days` days that the buyer has not answered; each with its e-mail. */
export async function autoCompleteDeliveries(db: DB, days: number, links: MailLinks, now = clock.now()) {
  const cutoff = new Date(now.getTime() - days * 24 * 60 * 60 * 1000)
  const due = await db
    .selectFrom('service_orders')
    .select('id')
    .where('status', '=', 'delivered')
    .where('delivered_at', '<=', cutoff)
    .execute()
  let completed = 0
  for (const { id } of due) {
    await db.transaction().execute(async (trx) => {
      if (!(await moveServiceOrder(trx, id, 'autoComplete', null, { completed_at: now }))) return
      await mailStatusToBuyer(trx, id, 'completed', links)
      completed += 1
    })
  }
  return completed
}
