// Gift and bundle events for a school's webhooks (decision 0061): a paid gift of the school's course writes
// gift.purchased (and enrols nobody), its claim writes gift.claimed and enrolment.granted for the recipient; a paid
// bundle writes one bundle.purchased with the school's courses and their stored shares beside order.paid per line.
// Each is written in the payment's or claim's transaction, for the school that owns the courses only. The gift's
// e-mail of a white-label school's course comes under the school's name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let payments: PaymentsConfig
let admin: TestUser
let owner: TestUser
let bystander: TestUser
let endpointId: string
let bystanderEndpointId: string
const db = () => shop.database.db

const EVENTS = ['order.paid', 'enrolment.granted', 'gift.purchased', 'gift.claimed', 'bundle.purchased']

beforeAll(async () => {
  shop = await startPaymentsServer()
  payments = shop.payments
  admin = await createUser(db(), { role: 'admin' })
  ;[owner, bystander] = await Promise.all([
    createCreator(db(), { plan: 'enterprise' }),
    createCreator(db(), { plan: 'enterprise' }),
  ])
  const made = await (await shopCaller(db(), owner)).webhooks.create({
    url: 'https://hooks.example.com/school',
    description: 'CRM',
    eventTypes: EVENTS as never,
    password: owner.password,
  })
  endpointId = made.id
  // White label (decision 0063): the gift's e-mail comes under the school's name.
  await (await shopCaller(db(), owner)).domains.saveBrand({ displayName: 'Gifted Academy', brandColor: '#336699' })
  bystanderEndpointId = (
    await (
      await shopCaller(db(), bystander)
    ).webhooks.create({
      url: 'https://hooks.example.com/other',
      description: '',
      eventTypes: EVENTS as never,
      password: bystander.password,
    })
  ).id
}, 120_000)
afterAll(() => shop?.close())

async function deliveries(endpoint: string, after: Date) {
  const rows = await db()
    .selectFrom('webhook_deliveries')
    .select(['event_type', 'payload'])
    .where('endpoint_id', '=', endpoint)
    .where('created_at', '>=', after)
    .orderBy('created_at')
    .execute()
  return rows.map((row) => ({
    type: row.event_type,
    data: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload).data as Record<string, unknown>,
  }))
}

const ofType = (rows: Awaited<ReturnType<typeof deliveries>>, type: string) => rows.filter((row) => row.type === type)

describe('gift events', { timeout: 120_000 }, () => {
  it('a paid gift writes gift.purchased; its claim writes gift.claimed and the recipient’s enrolment.granted', async () => {
    const course = await createCreatorCourse(db(), owner, { status: 'published' })
    const buyer = await createUser(db())
    const recipientEmail = `friend-${Date.now()}@example.com`
    const start = new Date()
    const started = await (await shopCaller(db(), buyer, payments)).gifts.checkout({
      courseId: course.id,
      recipientEmail,
      message: 'For you',
      method: 'bank_transfer',
    })
    await (await shopCaller(db(), admin, payments)).admin.orders.markPaid({ id: started.orderId })

    const paid = await deliveries(endpointId, start)
    const [purchased, ...more] = ofType(paid, 'gift.purchased')
    expect(more).toHaveLength(0)
    const gift = await db()
      .selectFrom('gifts')
      .select(['id', 'order_item_id'])
      .where('order_id', '=', started.orderId)
      .executeTakeFirstOrThrow()
    expect(purchased?.data).toMatchObject({
      courseId: course.id,
      giftId: gift.id,
      orderId: started.orderId,
      orderItemId: gift.order_item_id,
      buyerId: buyer.id,
      amountMinor: 4900,
      currency: 'USD',
    })
    // The recipient's address is not in the payload; the buyer is not enrolled, so no enrolment.granted yet.
    expect(JSON.stringify(purchased)).not.toContain(recipientEmail)
    expect(ofType(paid, 'enrolment.granted')).toEqual([])
    expect(ofType(paid, 'gift.claimed')).toEqual([])
    // Another school hears nothing of it.
    expect(await deliveries(bystanderEndpointId, start)).toEqual([])

    const mail = await db()
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body', 'from_name'])
      .where('to_address', '=', recipientEmail)
      .executeTakeFirstOrThrow()
    expect(mail.from_name).toBe('Gifted Academy')
    expect(mail.text_body).toContain('on Gifted Academy')
    expect(`${mail.subject}\n${mail.text_body}`).not.toMatch(/skillforge/i)
    const token = /\/gifts\/claim\?token=([a-z2-7]+)/.exec(mail.text_body)?.[1] ?? ''
    const recipient = await createUser(db())
    const beforeClaim = new Date()
    await (await shopCaller(db(), recipient, payments)).gifts.claim({ token })
    const claimed = await deliveries(endpointId, beforeClaim)
    expect(claimed.map((row) => row.type).sort()).toEqual(['enrolment.granted', 'gift.claimed'])
    expect(ofType(claimed, 'gift.claimed')[0]?.data).toMatchObject({
      courseId: course.id,
      giftId: gift.id,
      learnerId: recipient.id,
      buyerId: buyer.id,
      orderId: started.orderId,
    })
    // The recipient's enrolment as the API lists it: a purchase (its source is the gift's order line), with its id.
    const enrolment = await db()
      .selectFrom('access_grants')
      .select('id')
      .where('user_id', '=', recipient.id)
      .where('course_id', '=', course.id)
      .executeTakeFirstOrThrow()
    expect(ofType(claimed, 'enrolment.granted')[0]?.data).toEqual({
      courseId: course.id,
      enrolmentId: enrolment.id,
      learnerId: recipient.id,
      source: 'purchase',
      giftId: gift.id,
      orderId: started.orderId,
      orderItemId: expect.any(String),
    })
  })
})

describe('bundle events', { timeout: 120_000 }, () => {
  it('a paid bundle writes one bundle.purchased with its courses and stored shares, beside order.paid per line', async () => {
    const courses = [
      await createCreatorCourse(db(), owner, { status: 'published' }),
      await createCreatorCourse(db(), owner, { status: 'published' }),
    ]
    const bundle = await (await shopCaller(db(), owner)).bundles.studio.create({
      title: 'Two together',
      slug: `two-together-${Date.now()}`,
      description: 'Both courses',
      courseIds: courses.map((course) => course.id),
      currency: 'USD',
      price: '70.00',
      published: true,
    })
    const buyer = await createUser(db())
    const caller = await shopCaller(db(), buyer, payments)
    await caller.cart.add({ kind: 'bundle', bundleId: bundle.id })
    const start = new Date()
    const started = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    await (await shopCaller(db(), admin, payments)).admin.orders.markPaid({ id: started.orderId })

    const rows = await deliveries(endpointId, start)
    const bundles = ofType(rows, 'bundle.purchased')
    expect(bundles).toHaveLength(1)
    const lines = await db()
      .selectFrom('order_items')
      .select(['id', 'course_id', 'unit_price_minor'])
      .where('order_id', '=', started.orderId)
      .execute()
    expect(lines).toHaveLength(2)
    expect(bundles[0]?.data).toMatchObject({
      bundleId: bundle.id,
      bundleTitle: 'Two together',
      orderId: started.orderId,
      learnerId: buyer.id,
      amountMinor: 7000,
      currency: 'USD',
    })
    expect([...((bundles[0]?.data.courseIds ?? []) as string[])].sort()).toEqual(
      courses.map((course) => course.id).sort(),
    )
    expect([...((bundles[0]?.data.orderItemIds ?? []) as string[])].sort()).toEqual(lines.map((line) => line.id).sort())
    expect(lines.reduce((sum, line) => sum + line.unit_price_minor, 0)).toBe(7000)
    expect(ofType(rows, 'order.paid')).toHaveLength(2)
    expect(ofType(rows, 'enrolment.granted')).toHaveLength(2)
    expect(await deliveries(bystanderEndpointId, start)).toEqual([])
    // The buyer's order history names the bundle on each of its courses' lines.
    const [history] = await caller.purchases.orders()
    expect(history!.items.map((item) => item.bundleTitle)).toEqual(['Two together', 'Two together'])

    // An ordinary order (no bundle) writes no bundle.purchased.
    const single = await createCreatorCourse(db(), owner, { status: 'published' })
    const other = await createUser(db())
    const otherCaller = await shopCaller(db(), other, payments)
    await otherCaller.cart.add({ kind: 'course', courseId: single.id })
    const plain = new Date()
    const order = await otherCaller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    await (await shopCaller(db(), admin, payments)).admin.orders.markPaid({ id: order.orderId })
    const plainRows = await deliveries(endpointId, plain)
    expect(ofType(plainRows, 'order.paid')).toHaveLength(1)
    expect(ofType(plainRows, 'bundle.purchased')).toEqual([])
  })
})
