// orders/: the one table of allowed status changes, and the functions that apply them on a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OrderStatus } from '../../db/types.ts'
import type { DatabaseHandle } from '../../src-server/db.ts'
import { createFromCart } from '../../src-server/orders/create.ts'
import { markPaid } from '../../src-server/orders/pay.ts'
import { awaitTransfer, cancel, markFailed } from '../../src-server/orders/pending.ts'
import { canTransition, ORDER_TRANSITIONS, type OrderTransition } from '../../src-server/orders/transitions.ts'
import { ORDER_STATUSES } from '../../src-shared/admin.ts'
import { createTestDatabase } from '../support/db.ts'
import { createUser } from '../support/factories.ts'
import { raceIt } from '../support/race.ts'
import { publishedCourse, shopCaller } from '../support/shop.ts'

let database: DatabaseHandle
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

const STATUSES: readonly OrderStatus[] = ORDER_STATUSES

async function pendingOrder(method: 'card' | 'paypal' | 'bank_transfer' = 'card', offset = 0) {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user)
  await caller.cart.add({ kind: 'course', courseId: (await publishedCourse(db(), offset)).id })
  const order = await createFromCart(db(), { userId: user.id, currency: 'USD', method, referencePrefix: 'SF' })
  return { user, orderId: order.id }
}
const statusOf = async (id: string) =>
  (await db().selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status

describe('the transition table', () => {
  it('lets only refunds and disputes leave paid, and lets only Stripe pay a cancelled order', () => {
    const leavesPaid = (Object.keys(ORDER_TRANSITIONS) as OrderTransition[]).filter((t) => canTransition('paid', t))
    expect(leavesPaid).toEqual(['refundPartly', 'refundFully', 'dispute'])
    expect(canTransition('cancelled', 'payByStripe')).toBe(true)
    expect(canTransition('cancelled', 'payByStaff')).toBe(false)
    const allowed = (transition: OrderTransition) => STATUSES.filter((status) => canTransition(status, transition))
    expect(allowed('fail')).toEqual(['pending'])
    expect(allowed('awaitTransfer')).toEqual(['pending'])
    expect(allowed('cancel')).toEqual(['pending', 'awaiting_transfer', 'failed'])
    expect(allowed('expire')).toEqual(['pending'])
    expect(allowed('cancelByBuyer')).toEqual(['pending'])
    expect(allowed('payByStripe')).toEqual(['pending', 'awaiting_transfer', 'failed', 'cancelled', 'expired'])
    expect(allowed('refundPartly')).toEqual(['paid', 'partially_refunded'])
    expect(allowed('refundFully')).toEqual(['paid', 'partially_refunded', 'disputed'])
    expect(allowed('dispute')).toEqual(['paid', 'partially_refunded'])
    expect(allowed('winDispute')).toEqual(['disputed'])
  })
})

describe('order transitions on the database', () => {
  it('never marks a paid order failed, whoever asks', async () => {
    const { orderId } = await pendingOrder('card', 0)
    expect(await markPaid(db(), orderId, { source: 'stripe' })).toBe('fulfilled')
    expect(await markFailed(db(), orderId)).toBe(false)
    expect(await statusOf(orderId)).toBe('paid')
    await expect(cancel(db(), orderId, (await createUser(db(), { role: 'admin' })).id)).rejects.toMatchObject({
      kind: 'invalid',
      message: 'A paid order cannot be cancelled',
    })
  })

  raceIt('fulfils once when ten payments of one order race', async () => {
    const { user, orderId } = await pendingOrder('paypal', 1)
    const results = await Promise.all(Array.from({ length: 10 }, () => markPaid(db(), orderId, { source: 'staff' })))
    expect(results.filter((result) => result === 'fulfilled')).toHaveLength(1)
    expect(results.filter((result) => result === 'already_paid')).toHaveLength(9)
    const enrolments = await db()
      .selectFrom('access_grants')
      .where('kind', '=', 'course')
      .select('course_id')
      .where('user_id', '=', user.id)
      .execute()
    expect(enrolments).toHaveLength(1)
  })

  it("'I've Made the Transfer' applies only to the buyer's own bank-transfer order", async () => {
    const card = await pendingOrder('card', 2)
    await expect(awaitTransfer(db(), card.user.id, card.orderId)).rejects.toMatchObject({ kind: 'not_found' })
    const bank = await pendingOrder('bank_transfer', 3)
    const stranger = await createUser(db())
    await expect(awaitTransfer(db(), stranger.id, bank.orderId)).rejects.toMatchObject({ kind: 'not_found' })
    expect(await awaitTransfer(db(), bank.user.id, bank.orderId)).toMatchObject({ status: 'awaiting_transfer' })
    // Asked again, it reports the state it is in and changes nothing.
    expect(await awaitTransfer(db(), bank.user.id, bank.orderId)).toMatchObject({ status: 'awaiting_transfer' })
    expect(await statusOf(bank.orderId)).toBe('awaiting_transfer')
  })

  it('a failed card order is still paid when Stripe later takes the money', async () => {
    const { orderId } = await pendingOrder('card', 4)
    expect(await markFailed(db(), orderId)).toBe(true)
    expect(await markPaid(db(), orderId, { source: 'staff' })).toBe('fulfilled')
    expect(await statusOf(orderId)).toBe('paid')
  })
})
