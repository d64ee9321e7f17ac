// A paid gift written straight to the database, for specs that need a gift to exist rather than to buy one.
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { markPaid } from '../../src-server/flows/pay-order.ts'
import { createGift } from '../../src-server/promotions/gifts.ts'
import { createUser } from '../support/factories.ts'
import { placeOrder } from '../support/orders.ts'
import { expect } from './fixtures.ts'

/** A gift of the course to an address, written as a paid gift order by a new giver (its e-mail goes out at payment). */
export async function paidGift(
  db: Kysely<Database>,
  origin: string,
  course: { id: string; title: string },
  to: string,
) {
  const giver = await createUser(db, { firstName: 'Gus', lastName: 'Again' })
  const reference = `SF-GIFT-${Date.now().toString(36).toUpperCase()}`
  const orderId = await placeOrder(db, {
    userId: giver.id,
    courseId: course.id,
    title: course.title,
    reference,
    method: 'bank_transfer',
    status: 'awaiting_transfer',
  })
  const line = await db.selectFrom('order_items').select('id').where('order_id', '=', orderId).executeTakeFirstOrThrow()
  await createGift(db, {
    orderId,
    orderItemId: line.id,
    buyerId: giver.id,
    recipientEmail: to,
    message: '',
    sendAt: new Date(),
    linkOrigin: origin,
  })
  expect(await markPaid(db, orderId, { source: 'staff' })).toBe('fulfilled')
  return giver
}
