// Creators' sales for the earnings tests (integration and e2e): a published course owned by a creator, sold to a new
// buyer through an order paid by staff (markPaid, the money path every rail ends in), and the line's share.
import { randomBytes } from 'node:crypto'
import { addCourseOwner } from '../../src-server/creators/course-team.ts'
import { recordSale } from '../../src-server/earnings/shares.ts'
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

const DAY = 86_400_000

/**
 * A new creator's $100.00 sale on Basic's 10 % (a $90.00 share), recorded straight in the ledger at `paidAt` with its
 * 30-day hold (no checkout): the one line the earnings race tests race over. Returns the creator, order and line.
 */
export async function recordedSale(
  db: DB,
  options: { reference: string; paidAt: Date; processorFeeDue?: boolean },
): Promise<{ creatorId: string; orderId: string; itemId: string }> {
  const course = await db.selectFrom('courses').select('id').executeTakeFirstOrThrow()
  const creator = await createUser(db)
  const buyer = await createUser(db)
  const orderId = await placeOrder(db, {
    userId: buyer.id,
    courseId: course.id,
    reference: options.reference,
    status: 'paid',
  })
  const item = await db.selectFrom('order_items').select('id').where('order_id', '=', orderId).executeTakeFirstOrThrow()
  await db.transaction().execute((trx) =>
    recordSale(trx, {
      orderItemId: item.id,
      orderId,
      courseId: course.id,
      creatorId: creator.id,
      currency: 'USD',
      netMinor: 10_000,
      feeBasisPoints: 1000,
      planId: null,
      paidAt: options.paidAt,
      holdUntil: new Date(options.paidAt.getTime() + 30 * DAY),
      processorFeeDue: options.processorFeeDue,
    }),
  )
  return { creatorId: creator.id, orderId, itemId: item.id }
}
