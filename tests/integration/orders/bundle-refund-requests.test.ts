// A refund request on a course bought in a bundle is a request for the bundle (decision 0149): the courses were sold at
// shares of the bundle's price, so giving back one of them at its share would leave the buyer the others below their
// own prices. The request covers the bundle's lines of that order still held, once per bundle (a unique index decides
// between two sent at once: raced on PostgreSQL); staff see the bundle, its courses and what approving gives back, and
// approving refunds those lines in one refund. A course bought beside the bundle keeps its own request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { REFUND_MESSAGES } from '../../../src-shared/schemas/orders.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { ownedCourse, type SoldCourse } from '../../support/earnings.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, payCartByCard, startPaymentsServer } from '../../support/payments-server.ts'
import { raceIt } from '../../support/race.ts'
import { shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
let courses: SoldCourse[]
let single: SoldCourse
let bundleId: string
const db = () => shop.database.db
type Caller = Awaited<ReturnType<typeof shopCaller>>

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
  const creator = await createCreator(db(), { plan: 'pro' })
  // 30.01 + 20.00 + 9.99 listed, sold together at 40.00: shares 20.01, 13.33 and 6.66 (largest remainder).
  courses = [
    await ownedCourse(db(), creator.id, 3001, 'Bundle course A'),
    await ownedCourse(db(), creator.id, 2000, 'Bundle course B'),
    await ownedCourse(db(), creator.id, 999, 'Bundle course C'),
  ]
  single = await ownedCourse(db(), creator.id, 1500, 'A course bought beside the bundle')
  const made = await (await shopCaller(db(), creator)).bundles.studio.create({
    title: 'Full stack bundle',
    slug: 'refunded-bundle',
    description: 'Three courses, one price',
    courseIds: courses.map((course) => course.id),
    currency: 'USD',
    price: '40.00',
    published: true,
  })
  bundleId = made.id
})
afterAll(() => shop.close())

const staff = () => shopCaller(db(), admin, payments)
const owned = async (caller: Caller) => (await caller.purchases.entitlements()).courseIds.sort()

/** A buyer who paid by card for the bundle and one course beside it; the order's lines by course. */
async function buyBundleAndCourse() {
  const buyer = await createUser(db())
  const caller = await shopCaller(db(), buyer, payments)
  await caller.cart.add({ kind: 'bundle', bundleId })
  await caller.cart.add({ kind: 'course', courseId: single.id })
  const orderId = await payCartByCard(fake, caller)
  const [order] = await caller.purchases.orders()
  const lineOf = (course: SoldCourse) => order!.items.find((item) => item.courseId === course.id)!
  return { buyer, caller, orderId, lineOf }
}

const mails = (to: string, kind: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', to)
    .where('kind', '=', kind)
    .execute()

describe('a refund request on a course bought in a bundle', () => {
  it('stands for the whole bundle, once, and approving gives back every course of it at its stored share', async () => {
    const { buyer, caller, orderId, lineOf } = await buyBundleAndCourse()
    await caller.purchases.requestRefund({ lineId: lineOf(courses[1]!).id, reason: 'Not what I expected' })

    // Each course of the bundle reads as asked; the course bought beside it does not.
    const [order] = await caller.purchases.orders()
    const asked = (course: SoldCourse) =>
      order!.items.find((item) => item.courseId === course.id)!.refundRequest?.status ?? null
    expect(courses.map(asked)).toEqual(['open', 'open', 'open'])
    expect(asked(single)).toBeNull()
    expect(order!.items.find((item) => item.courseId === courses[0]!.id)).toMatchObject({ bundleId })

    // Only the buyer asks: another account is told the line does not exist (nothing about the order leaks).
    const stranger = await shopCaller(db(), await createUser(db()), payments)
    await expect(
      stranger.purchases.requestRefund({ lineId: lineOf(courses[0]!).id, reason: 'Not mine' }),
    ).rejects.toThrow('Order line not found')
    // A second request on another course of the bundle is the same request.
    await expect(caller.purchases.requestRefund({ lineId: lineOf(courses[2]!).id, reason: 'Again' })).rejects.toThrow(
      REFUND_MESSAGES.bundleRequestExists,
    )
    const staffMail = await db()
      .selectFrom('mail_outbox')
      .select('subject')
      .where('kind', '=', 'refund_requested')
      .where('subject', 'like', `%${order!.reference}%`)
      .execute()
    expect(staffMail.map((mail) => mail.subject)).toEqual([
      `Refund requested: the bundle “Full stack bundle” (order ${order!.reference})`,
    ])

    // Staff see one request: the bundle, its courses, and the bundle's price as sold.
    const request = (await (await staff()).admin.orders.requests()).find((row) => row.orderId === orderId)!
    expect(request).toMatchObject({ bundle: { title: 'Full stack bundle' }, priceMinor: 4000 })
    expect(request.bundle?.courses.sort()).toEqual(['Bundle course A', 'Bundle course B', 'Bundle course C'])
    const decided = await (await staff()).admin.orders.decideRequest({ requestId: request.id, decision: 'approve' })
    expect(decided).toMatchObject({ status: 'approved', refund: { amountMinor: 4000, status: 'partially_refunded' } })
    expect(await owned(caller)).toEqual([single.id])
    const refunds = await db().selectFrom('refunds').select('amount_minor').where('order_id', '=', orderId).execute()
    expect(refunds.map((refund) => refund.amount_minor)).toEqual([4000])
    // The courses' creator gives back the three shares, and keeps the one of the course bought beside them.
    const reversals = await db().selectFrom('ledger_transactions').select('key').where('kind', '=', 'refund').execute()
    const reversedLine = (course: SoldCourse) => reversals.some((row) => row.key.includes(lineOf(course).id))
    expect([...courses, single].map(reversedLine)).toEqual([true, true, true, false])

    const [answer] = await mails(buyer.email, 'refund_request_approved')
    expect(answer?.subject).toBe(
      `Your refund request for the bundle “Full stack bundle” (order ${order!.reference}) is approved`,
    )
    expect(answer?.text_body).toContain('The courses of the bundle are no longer available in your account.')

    // The course bought beside the bundle is asked for on its own.
    await caller.purchases.requestRefund({ lineId: lineOf(single).id, reason: 'That one too' })
    const own = (await (await staff()).admin.orders.requests()).find((row) => row.orderId === orderId)!
    expect(own).toMatchObject({ title: single.title, bundle: null, priceMinor: 1500 })
  })

  it('covers only the courses still held after staff refunded one by hand, and a decline stands for the bundle', async () => {
    const { caller, orderId, lineOf } = await buyBundleAndCourse()
    await (await staff()).admin.orders.refund({ orderId, lineIds: [lineOf(courses[0]!).id], reason: 'Asked by phone' })
    // The refunded course cannot be asked for; another course of the bundle can, for what is left of it.
    await expect(caller.purchases.requestRefund({ lineId: lineOf(courses[0]!).id, reason: 'x' })).rejects.toThrow(
      REFUND_MESSAGES.lineRefunded,
    )
    await caller.purchases.requestRefund({ lineId: lineOf(courses[2]!).id, reason: 'The rest, please' })
    const request = (await (await staff()).admin.orders.requests()).find((row) => row.orderId === orderId)!
    expect(request).toMatchObject({ bundle: { title: 'Full stack bundle' }, priceMinor: 1333 + 666 })
    expect(request.bundle?.courses.sort()).toEqual(['Bundle course B', 'Bundle course C'])

    await (await staff()).admin.orders.decideRequest({ requestId: request.id, decision: 'decline', reason: 'Watched' })
    const [order] = await caller.purchases.orders()
    const state = (course: SoldCourse) => {
      const item = order!.items.find((line) => line.courseId === course.id)!
      return item.refunded ? 'refunded' : (item.refundRequest?.status ?? null)
    }
    expect(courses.map(state)).toEqual(['refunded', 'declined', 'declined'])
    await expect(caller.purchases.requestRefund({ lineId: lineOf(courses[1]!).id, reason: 'x' })).rejects.toThrow(
      REFUND_MESSAGES.bundleRequestExists,
    )
    expect((await owned(caller)).sort()).toEqual([courses[1]!.id, courses[2]!.id, single.id].sort())
  })

  raceIt('stands once when two requests on two courses of the bundle are sent at the same moment', async () => {
    const { buyer, caller, orderId, lineOf } = await buyBundleAndCourse()
    const results = await Promise.allSettled(
      [courses[0]!, courses[1]!, courses[2]!].map((course) =>
        caller.purchases.requestRefund({ lineId: lineOf(course).id, reason: `Race ${course.title}` }),
      ),
    )
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    expect(
      results.flatMap((result) => (result.status === 'rejected' ? [(result.reason as Error).message] : [])),
    ).toEqual([REFUND_MESSAGES.bundleRequestExists, REFUND_MESSAGES.bundleRequestExists])
    const stored = await db()
      .selectFrom('refund_requests')
      .select('id')
      .where('order_id', '=', orderId)
      .where('user_id', '=', buyer.id)
      .execute()
    expect(stored).toHaveLength(1)
  })
})
