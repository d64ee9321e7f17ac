// The paid lines of one owner's courses (the REST API's orders, decision 0060): each course line of an order that was
// paid (refunded and disputed ones too, with the refund's date), paged by a keyset (paid_xid, paid_at, line id) in the
// order the paying transactions began writing, and only orders whose paying transaction ended before the oldest one
// still running (decision 0094): a client syncing with the cursor never misses an order paid while it read.
import { sql } from 'kysely'
import { afterXidKeyset, committedBefore } from '../kernel/cursor.ts'
import type { DB } from '../kernel/db.ts'

export interface SaleCursor {
  /** The paying transaction's id (orders.paid_xid, xid8 as text). */
  xid: string
  /** paid_at as the database prints it (microseconds kept). */
  at: string
  id: string
}

export async function ownerCourseSalesAfter(db: DB, ownerId: string, after: SaleCursor | null, limit: number) {
  let query = db
    .selectFrom('order_items as oi')
    .innerJoin('orders as o', 'o.id', 'oi.order_id')
    .innerJoin('courses as c', 'c.id', 'oi.course_id')
    .select([
      'oi.id as line_id',
      'o.id as order_id',
      'o.reference',
      'o.status',
      'o.currency',
      'o.paid_at',
      sql<string>`o.paid_at::text`.as('paid_at_key'),
      sql<string>`o.paid_xid::text`.as('paid_xid_key'),
      'oi.course_id',
      'oi.title',
      'oi.unit_price_minor',
      'oi.discount_minor',
      'oi.refunded_at',
    ])
    .where('oi.kind', '=', 'course')
    .where('c.owner_id', '=', ownerId)
    .where('o.paid_at', 'is not', null)
    .where(committedBefore('o.paid_xid'))
  if (after) {
    query = query.where(afterXidKeyset({ xid: 'o.paid_xid', time: 'o.paid_at', id: 'oi.id' }, after))
  }
  return query.orderBy('o.paid_xid').orderBy('o.paid_at').orderBy('oi.id').limit(limit).execute()
}
