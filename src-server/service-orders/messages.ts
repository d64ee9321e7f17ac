// The thread of a service order: buyer and staff messages (each e-mailed to the other side through the outbox),
// internal notes (staff only, never e-mailed), read marks behind the unread counts, and attachments uploaded
// beforehand (files.ts) joined to the message that carries them.

import { sql } from 'kysely'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { type Viewer, visibleOrder } from './access.ts'
import { attachFiles } from './files.ts'
import { type MailLinks, mailNewMessage } from './mails.ts'

export interface NewMessage {
  body: string
  /** Ids of files this author uploaded to the order for a message and not attached yet. */
  fileIds: string[]
  /** Staff only: a note the buyer never sees. */
  internal?: boolean
}

export async function postMessage(
  db: DB,
  viewer: Viewer,
  id: string,
  side: 'buyer' | 'staff',
  message: NewMessage,
  links: MailLinks,
) {
  const order = await visibleOrder(db, id, viewer, side)
  // A cancelled order's thread is closed to the buyer; staff may still write to them or add notes.
  if (side === 'buyer' && order.status === 'cancelled') throw new DomainError('conflict', 'This order is cancelled')
  const internal = side === 'staff' && message.internal === true
  if (!message.body.trim()) throw new DomainError('invalid', 'Write a message first')
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('service_order_messages')
      .values({
        service_order_id: id,
        author_id: viewer.id,
        from_staff: side === 'staff',
        internal,
        body: message.body.trim(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await attachFiles(trx, id, viewer.id, message.fileIds, { message_id: row.id }, 'message')
    if (!internal) await mailNewMessage(trx, id, side === 'staff', message.body.trim(), links)
    return { id: row.id }
  })
}

/**
 * The reader saw the other side's messages. The buyer's mark is the message's read_at; each staff member gets
 * their own mark (one colleague reading a message leaves it unread for the others), and the first staff reader
 * also sets read_at (what the buyer sees as "read by the team").
 */
export async function markThreadRead(db: DB, id: string, reader: 'buyer' | { staffId: string }, now = clock.now()) {
  await db
    .updateTable('service_order_messages')
    .set({ read_at: now })
    .where('service_order_id', '=', id)
    .where('from_staff', '=', reader === 'buyer')
    .where('read_at', 'is', null)
    .execute()
  if (reader === 'buyer') return
  await db
    .insertInto('service_order_message_reads')
    .columns(['message_id', 'user_id', 'read_at'])
    .expression((eb) =>
      eb
        .selectFrom('service_order_messages')
        .select([
          'id',
          sql<string>`${reader.staffId}::uuid`.as('user_id'),
          sql<Date>`${now}::timestamptz`.as('read_at'),
        ])
        .where('service_order_id', '=', id)
        .where('from_staff', '=', false),
    )
    .onConflict((oc) => oc.columns(['message_id', 'user_id']).doNothing())
    .execute()
}

/** Staff messages the buyer has not read, over all their orders (the account page's badge). */
export async function unreadForBuyer(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom('service_order_messages as m')
    .innerJoin('service_orders as o', 'o.id', 'm.service_order_id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('o.user_id', '=', userId)
    .where('m.from_staff', '=', true)
    .where('m.internal', '=', false)
    .where('m.read_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
