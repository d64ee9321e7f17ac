// An order for one course, written straight into the tables (as if checkout had started it), for tests of what
// staff and the catalogue do with existing orders. Shared by integration and end-to-end tests.
import type { Kysely } from 'kysely'
import type { Database, OrderStatus, PaymentMethod } from '../../db/types.ts'
import { isPaidStatus } from '../../src-server/orders/transitions.ts'

export interface PlacedOrder {
  userId: string
  courseId?: string
  /** Several course lines instead of the one `courseId` (the total is their sum). */
  courses?: { id: string; title: string; price_minor: number }[]
  reference: string
  method?: PaymentMethod
  status?: OrderStatus
  currency?: 'USD' | 'GBP'
  totalMinor?: number
  title?: string
  /** The course lines were sold in this bundle (their prices its shares). */
  bundle?: { id: string; title: string }
}

export async function placeOrder(db: Kysely<Database>, order: PlacedOrder): Promise<string> {
  const lines = order.courses ?? [
    { id: order.courseId!, title: order.title ?? 'A course', price_minor: order.totalMinor ?? 4999 },
  ]
  const total = lines.reduce((sum, line) => sum + line.price_minor, 0)
  const row = await db
    .insertInto('orders')
    .values({
      user_id: order.userId,
      reference: order.reference,
      currency: order.currency ?? 'USD',
      method: order.method ?? 'card',
      status: order.status ?? 'pending',
      subtotal_minor: total,
      total_minor: total,
      // A paid order took its total, as the paying transaction records it.
      ...(isPaidStatus(order.status ?? 'pending') ? { captured_minor: total } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('order_items')
    .values(
      lines.map((line) => ({
        order_id: row.id,
        kind: 'course' as const,
        course_id: line.id,
        item_key: `course:${line.id}`,
        title: line.title,
        unit_price_minor: line.price_minor,
        bundle_id: order.bundle?.id ?? null,
        bundle_title: order.bundle?.title ?? null,
      })),
    )
    .execute()
  return row.id
}
