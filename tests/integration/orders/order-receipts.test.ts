// The receipt of a paid order (orders/receipt.ts), queued in the mail outbox by the payment: to the buyer, with the
// order's reference, what was paid in the order's currency and each line; an order that started a free trial says
// nothing was charged yet and when the first charge comes. Exactly one e-mail per payment.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendReceipt } from '../../../src-server/orders/receipt.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { formatDate } from '../../../src-shared/dates.ts'
import { formatMoney } from '../../../src-shared/money.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { placeOrder } from '../../support/orders.ts'
import { mailsTo as mailsOf } from '../../support/outbox.ts'
import { type PaymentsServer, payCartByCard, startPaymentsServer } from '../../support/payments-server.ts'
import { pricedCourses, servicePackage, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => shop.close())

const mailsTo = (email: string) => mailsOf(db(), email)

/** The order's reference and its lines' titles, in the order the payment reads them. */
async function orderFacts(orderId: string) {
  const { reference } = await db()
    .selectFrom('orders')
    .select('reference')
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow()
  const items = await db()
    .selectFrom('order_items')
    .select('title')
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
  return { reference, items: items.map((item) => `- ${item.title}`).join('\n') }
}

describe('the receipt of a paid order', () => {
  it('is one e-mail to the buyer: the amount paid, the order’s reference and each line', async () => {
    const user = await createUser(db(), { firstName: 'Ada' })
    const caller = await shopCaller(db(), user, payments)
    const courses = await pricedCourses(db(), { count: 2 })
    for (const course of courses) await caller.cart.add({ kind: 'course', courseId: course.id })
    const orderId = await payCartByCard(fake, caller)
    const { reference, items } = await orderFacts(orderId)
    const total = formatMoney(courses[0]!.price_minor + courses[1]!.price_minor, 'USD')
    expect(items.split('\n')).toHaveLength(2)
    expect(await mailsTo(user.email)).toEqual([
      {
        kind: 'order_paid',
        subject: `Payment received for order ${reference}`,
        text_body: `Hi Ada,\n\nWe have received your payment of ${total} for order ${reference}:\n${items}\n\nThank you!`,
      },
    ])
  })

  it('greets a buyer without a first name as "there" and is in pounds for a GBP order', async () => {
    const user = await createUser(db(), { firstName: '' })
    const caller = await shopCaller(db(), user, payments)
    const formation = await servicePackage(db(), 'uk-company-formation', 'Standard')
    await caller.cart.add({ kind: 'service_package', packageId: formation.id })
    const started = await caller.payments.start({ currency: 'GBP', method: 'bank_transfer' })
    expect(await mailsTo(user.email)).toEqual([expect.objectContaining({ kind: 'bank_transfer_details' })])
    await (await shopCaller(db(), admin, payments)).admin.orders.markPaid({ id: started.orderId })
    const { reference, items } = await orderFacts(started.orderId)
    expect((await mailsTo(user.email)).slice(1)).toEqual([
      {
        kind: 'order_paid',
        subject: `Payment received for order ${reference}`,
        text_body: `Hi there,\n\nWe have received your payment of £300.00 for order ${reference}:\n${items}\n\nThank you!`,
      },
    ])
  })

  it('says a free trial started, what the first charge will be and when; a later purchase gets a payment receipt', async () => {
    const user = await createUser(db(), { firstName: 'Grace' })
    const caller = await shopCaller(db(), user, payments)
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    const orderId = await payCartByCard(fake, caller)
    const { reference, items } = await orderFacts(orderId)
    const trial = await db()
      .selectFrom('subscriptions')
      .select(['status', 'trial_ends_at'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(trial.status).toBe('trialing')
    const firstCharge = formatDate(trial.trial_ends_at!)
    expect(await mailsTo(user.email)).toEqual([
      {
        kind: 'order_paid',
        subject: `Free trial started for order ${reference}`,
        text_body: `Hi Grace,\n\nFree trial started — first charge of $19.99 on ${firstCharge}.\n${items}\n\nNothing has been charged yet; cancel before then from your account and you will not be charged.\n\nThank you!`,
      },
    ])

    // The trial belongs to the plan's order: a course bought during it is a payment like any other.
    const [course] = await pricedCourses(db(), { offset: 2 })
    await caller.cart.add({ kind: 'course', courseId: course!.id })
    const courseOrder = await orderFacts(await payCartByCard(fake, caller))
    expect((await mailsTo(user.email)).slice(1)).toEqual([
      {
        kind: 'order_paid',
        subject: `Payment received for order ${courseOrder.reference}`,
        text_body: `Hi Grace,\n\nWe have received your payment of ${formatMoney(course!.price_minor, 'USD')} for order ${courseOrder.reference}:\n${courseOrder.items}\n\nThank you!`,
      },
    ])
  })
})

describe('a free trial bought with a course', () => {
  it('says what the course took today and that the plan is charged only after its trial', async () => {
    const user = await createUser(db(), { firstName: 'Lin' })
    const caller = await shopCaller(db(), user, payments)
    const [course] = await pricedCourses(db(), { offset: 3 })
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    await caller.cart.add({ kind: 'course', courseId: course!.id })
    const orderId = await payCartByCard(fake, caller)
    const { reference } = await orderFacts(orderId)
    const [mail] = await mailsTo(user.email)
    expect(mail?.subject).toBe(`Free trial started for order ${reference}`)
    expect(mail?.text_body).toContain(
      `${formatMoney(course!.price_minor, 'USD')} was charged today for the rest of your order. The plan is not charged until then;`,
    )
    expect(mail?.text_body).not.toContain('Nothing has been charged')
  })
})

describe('sendReceipt on its own', () => {
  it('prices a trial row without an amount or currency (older rows) at 0 in the order’s currency, greets "there"', async () => {
    const user = await createUser(db(), { firstName: '' })
    const [course] = await pricedCourses(db())
    const reference = `ORD-${randomUUID().slice(0, 8)}`
    const id = await placeOrder(db(), { userId: user.id, courseId: course!.id, reference, currency: 'GBP' })
    const trialEndsAt = new Date('2026-12-24T12:00:00Z')
    await db()
      .insertInto('subscriptions')
      .values({
        user_id: user.id,
        plan_id: 'pro',
        billing_cycle: 'monthly',
        status: 'trialing',
        order_id: id,
        trial_ends_at: trialEndsAt,
        amount_minor: null,
        currency: null,
      })
      .execute()
    await sendReceipt(db(), { id, user_id: user.id, reference, currency: 'GBP', total_minor: 0 }, [
      { title: 'Pro Plan' },
    ])
    expect(await mailsTo(user.email)).toEqual([
      {
        kind: 'order_paid',
        subject: `Free trial started for order ${reference}`,
        text_body: `Hi there,\n\nFree trial started — first charge of £0.00 on 24 December 2026.\n- Pro Plan\n\nNothing has been charged yet; cancel before then from your account and you will not be charged.\n\nThank you!`,
      },
    ])
  })

  it('queues nothing when the buyer is gone', async () => {
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom('mail_outbox')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const before = await count()
    const order = { id: randomUUID(), user_id: randomUUID(), reference: 'ORD-GONE', currency: 'USD', total_minor: 100 }
    await expect(sendReceipt(db(), order, [{ title: 'A course' }])).resolves.toBeUndefined()
    expect(await count()).toBe(before)
  })
})
