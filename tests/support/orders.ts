// An order for one course, written straight into the tables (as if checkout had started it), for tests of what
// staff and the catalogue do with existing orders. Shared by integration and end-to-end tests.
import type { Kysely } from 'kysely'
import type { Database, OrderStatus, PaymentMethod } from '../../db/types.ts'

export interface PlacedOrder {
  userId: string
  courseId: string
  reference: string
  method?: PaymentMethod
  status?: OrderStatus
  currency?: 'USD' | 'GBP'
  totalMinor?: number
  title?: string
}

export async function placeOrder(db: Kysely<Database>, order: PlacedOrder): Promise<string> {
  const total = order.totalMinor ?? 4999
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
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('order_items')
    .values({
      order_id: row.id,
      kind: 'course',
      course_id: order.courseId,
      item_key: `course:${order.courseId}`,
      title: order.title ?? 'A course',
      unit_price_minor: total,
    })
    .execute()
  return row.id
}
