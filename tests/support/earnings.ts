// Creators' sales for the earnings tests (integration and e2e): a published course owned by a creator, sold to a new
// buyer through an order paid by staff (markPaid, the money path every rail ends in), and the line's share.
import { randomBytes } from 'node:crypto'
import { addCourseOwner } from '../../src-server/creators/course-team.ts'
import { markPaid } from '../../src-server/flows/pay-order.ts'
import type { DB } from '../../src-server/kernel/db.ts'
import { createUser } from './factories.ts'
import { placeOrder } from './orders.ts'

export interface SoldCourse {
  id: string
  title: string
  price_minor: number
}

/** A published course the creator owns, at `priceMinor`. */
export async function ownedCourse(db: DB, ownerId: string, priceMinor: number, title?: string): Promise<SoldCourse> {
  const category = await db.selectFrom('categories').select('id').executeTakeFirstOrThrow()
  const id = `earning-course-${randomBytes(4).toString('hex')}`
  const name = title ?? `Course ${id.slice(-8)}`
  await db
    .insertInto('courses')
    .values({
      id,
      title: name,
      category_id: category.id,
      instructor_name: 'A Creator',
      price_minor: priceMinor,
      what_you_will_learn: '[]',
      requirements: '[]',
      status: 'published',
      owner_id: ownerId,
    })
    .execute()
  // As the studio makes it: the owner is also the course's instructor with the whole share.
  await addCourseOwner(db, id, ownerId)
  return { id, title: name, price_minor: priceMinor }
}

/** A new buyer's order of the courses, paid by staff; returns the order's id, reference and line ids. */
export async function sell(db: DB, courses: SoldCourse[]) {
  const buyer = await createUser(db)
  const reference = `EARN-${randomBytes(3).toString('hex').toUpperCase()}`
  const orderId = await placeOrder(db, { userId: buyer.id, courses, reference, method: 'bank_transfer' })
  const result = await markPaid(db, orderId, { source: 'staff' })
  if (result !== 'fulfilled') throw new Error(`The order was not fulfilled: ${result}`)
  const lines = await db.selectFrom('order_items').select('id').where('order_id', '=', orderId).execute()
  return { orderId, reference, buyer, lineIds: lines.map((line) => line.id) }
}
