// Free enrolment: a course priced 0 is taken at once from its page (ledger source 'free_enrolment', no order, no
// cart), a priced course is refused; a cart whose total is 0 completes without Stripe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { createUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { pricedCourses, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
})
afterAll(() => shop.close())

const courseWithPrice = async (free: boolean) => (await pricedCourses(db(), { free }))[0]!

const grantsOf = (userId: string) =>
  db().selectFrom('access_grants').select(['course_id', 'source', 'order_id']).where('user_id', '=', userId).execute()

describe('Enrol for free', () => {
  it('enrols at once with the free_enrolment source, no order, and the course opens; twice changes nothing', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    const course = await courseWithPrice(true)
    await caller.cart.add({ kind: 'course', courseId: course.id })
    expect(await caller.purchases.enrolFree({ courseId: course.id })).toMatchObject({
      courseId: course.id,
      created: true,
    })
    expect(await caller.purchases.enrolFree({ courseId: course.id })).toMatchObject({ created: false })
    expect(await grantsOf(user.id)).toEqual([{ course_id: course.id, source: 'free_enrolment', order_id: null }])
    expect((await caller.purchases.entitlements()).courseIds).toEqual([course.id])
    expect(await db().selectFrom('orders').select('id').where('user_id', '=', user.id).execute()).toEqual([])
    expect((await caller.cart.list())?.items ?? []).toEqual([])
  })

  it('refuses a priced course, an unknown one and a visitor', async () => {
    const caller = await shopCaller(db(), await createUser(db()), payments)
    const priced = await courseWithPrice(false)
    await expect(caller.purchases.enrolFree({ courseId: priced.id })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'This course is not free',
    })
    await expect(caller.purchases.enrolFree({ courseId: 'no-such-course' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    const visitor = await shopCaller(db(), null, payments)
    await expect(visitor.purchases.enrolFree({ courseId: priced.id })).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
  })
})

describe('a cart whose total is 0', () => {
  it('completes at once without Stripe, whatever rail was picked, and grants its courses', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    const course = await courseWithPrice(true)
    await caller.cart.add({ kind: 'course', courseId: course.id })
    const sessionsBefore = fake.sessions.size
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    expect(started).toMatchObject({ method: 'free', totalMinor: 0 })
    expect(fake.sessions.size).toBe(sessionsBefore)
    const [order] = await caller.purchases.orders()
    expect(order).toMatchObject({ status: 'paid', method: 'free', invoice: null })
    expect((await caller.purchases.entitlements()).courseIds).toEqual([course.id])
    expect((await caller.cart.list())?.items ?? []).toEqual([])
  })

  it('refuses the free method for a cart with something to pay', async () => {
    const caller = await shopCaller(db(), await createUser(db()), payments)
    await caller.cart.add({ kind: 'course', courseId: (await courseWithPrice(false)).id })
    await expect(caller.payments.start({ currency: 'USD', method: 'free' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'This cart is not free: please choose a payment method',
    })
  })
})
