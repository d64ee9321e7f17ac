// Checkout recovery (issue 32): one reminder, through the outbox with List-Unsubscribe, for a ticked checkout that
// expired (card) or was left unpaid for 24 hours (PayPal, bank); never without the tick, never twice for a buyer's
// cart, never after a purchase; its link fills the cart again; its unsubscribe link settles what is still open.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { sendCartReminders } from '../../../src-server/flows/checkout-recovery.ts'
import { advanceClock, resetClock } from '../../../src-server/kernel/clock.ts'
import { deliverOutboxMail } from '../../../src-server/mail/delivery.ts'
import type { MailTransport } from '../../../src-server/mail/transport.ts'
import { expire } from '../../../src-server/orders/pending.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { captureLog } from '../../support/jobs.ts'
import { type PaymentsServer, sessionIdOf, startPaymentsServer } from '../../support/payments-server.ts'
import { pricedCourses, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let payments: PaymentsConfig
let admin: TestUser
const db = () => shop.database.db
const URL_BASE = 'https://shop.example'

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => shop.close())
afterEach(() => resetClock())

const caller = (user: TestUser) => shopCaller(db(), user, payments)
const sweep = () => sendCartReminders(db(), URL_BASE)
const reminders = (to: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['id', 'text_body', 'list_unsubscribe'])
    .where('to_address', '=', to)
    .where('kind', '=', 'cart_reminder')
    .execute()
const outcomeOf = async (orderId: string) =>
  (await db().selectFrom('cart_reminders').select('outcome').where('order_id', '=', orderId).executeTakeFirst())
    ?.outcome

/** A buyer with the offset-th course in the cart who started checking it out. */
async function checkout(offset: number, method: 'card' | 'paypal' | 'bank_transfer', remindMe?: boolean) {
  const user = await createUser(db())
  const api = await caller(user)
  const [course] = await pricedCourses(db(), { offset })
  await api.cart.add({ kind: 'course', courseId: course!.id })
  const started = await api.payments.start({ currency: 'USD', method, ...(remindMe === undefined ? {} : { remindMe }) })
  return { user, api, course: course!, orderId: started.orderId, url: 'url' in started ? started.url : '' }
}

describe('cart reminders', () => {
  it('never without the tick (absent or false)', async () => {
    for (const remindMe of [undefined, false]) {
      const { user, orderId } = await checkout(0, 'card', remindMe)
      await expire(db(), orderId)
      await sweep()
      expect(await reminders(user.email)).toEqual([])
    }
  })

  it('a ticked card checkout that expired: one reminder with List-Unsubscribe, never a second', async () => {
    const { user, orderId } = await checkout(1, 'card', true)
    await sweep()
    expect(await reminders(user.email)).toEqual([]) // still open: not left yet
    await expire(db(), orderId)
    await Promise.all([sweep(), sweep()])
    await sweep()
    const mails = await reminders(user.email)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.text_body).toContain(`${URL_BASE}/cart/restore?order=${orderId}`)
    expect(mails[0]!.list_unsubscribe).toMatch(/^https:\/\/shop\.example\/api\/mail\/unsubscribe\?token=[a-z2-7]{40}$/)
    expect(await outcomeOf(orderId)).toBe('sent')
  })

  it('never after a purchase made since the checkout', async () => {
    const { user, api, orderId } = await checkout(2, 'card', true)
    await expire(db(), orderId)
    // The buyer bought another course meanwhile (bank transfer, confirmed by staff).
    const [other] = await pricedCourses(db(), { offset: 3 })
    await api.cart.remove({ itemId: (await api.cart.list())!.items[0]!.id })
    await api.cart.add({ kind: 'course', courseId: other!.id })
    const bought = await api.payments.start({ currency: 'USD', method: 'bank_transfer' })
    await (await caller(admin)).admin.orders.markPaid({ id: bought.orderId })
    await sweep()
    expect(await reminders(user.email)).toEqual([])
    expect(await outcomeOf(orderId)).toBe('bought')
  })

  it('a PayPal order left unpaid for 24 hours: reminded then, and the link fills the cart again', async () => {
    const { user, api, course, orderId } = await checkout(4, 'paypal', true)
    expect((await api.cart.list())!.items).toEqual([]) // PayPal took the lines out
    await sweep()
    expect(await reminders(user.email)).toEqual([])
    await advanceClock(25 * 60 * 60)
    await sweep()
    expect(await reminders(user.email)).toHaveLength(1)
    expect(await api.cartReminders.restore({ orderId })).toEqual({ restored: true })
    expect((await api.cart.list())!.items.map((item) => item.courseId)).toEqual([course.id])
    // Someone else's order: not found.
    const stranger = await caller(await createUser(db()))
    await expect(stranger.cartReminders.restore({ orderId })).rejects.toThrow('Order not found')
  })

  it('one reminder per buyer even when several ticked checkouts were left', async () => {
    const { user, api, orderId } = await checkout(5, 'card', true)
    await expire(db(), orderId)
    const again = await api.payments.start({ currency: 'USD', method: 'card', remindMe: true })
    await expire(db(), again.orderId)
    await sweep()
    expect(await reminders(user.email)).toHaveLength(1)
    expect([await outcomeOf(orderId), await outcomeOf(again.orderId)].sort()).toEqual(['duplicate', 'sent'])
  })

  it('the unsubscribe link settles what is still open; a guessed one is refused', async () => {
    const { user, api, orderId } = await checkout(6, 'card', true)
    await expire(db(), orderId)
    await sweep()
    const [mail] = await reminders(user.email)
    const token = /token=([a-z2-7]+)/.exec(mail!.list_unsubscribe!)![1]!
    const pending = await api.payments.start({ currency: 'USD', method: 'bank_transfer', remindMe: true })
    const visitor = await shopCaller(db(), null, payments)
    await expect(visitor.cartReminders.unsubscribe({ token: 'a'.repeat(40) })).rejects.toThrow('not valid')
    await expect(visitor.cartReminders.unsubscribe({ token: 'x' })).rejects.toThrow('not valid')
    await visitor.cartReminders.unsubscribe({ token })
    expect(await outcomeOf(pending.orderId)).toBe('unsubscribed')
  })
})

/** Stripe's checkout.session.expired for the order's session, signed once: `send` posts that very event (a replay). */
function expiredEvent(orderUrl: string) {
  const session = { ...shop.fake.sessions.get(sessionIdOf(orderUrl))!, status: 'expired' }
  const { payload, header } = shop.fake.signedEvent('checkout.session.expired', session)
  return {
    send: async () =>
      (
        await fetch(shop.fake.webhookUrl!, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': header },
          body: payload,
        })
      ).status,
  }
}

const cardCheckout = (offset: number, remindMe?: boolean) => checkout(offset, 'card', remindMe)

describe('checkout.session.expired queues the reminder at once (no sweep)', () => {
  it('a ticked card checkout: one reminder in the outbox when the event lands; the replayed event counts once', async () => {
    const { user, orderId, url } = await cardCheckout(7, true)
    const event = expiredEvent(url)
    expect(await event.send()).toBe(200)
    const mails = await reminders(user.email)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.text_body).toContain(`/cart/restore?order=${orderId}`)
    expect(mails[0]!.list_unsubscribe).toMatch(/\/api\/mail\/unsubscribe\?token=[a-z2-7]{40}$/)
    expect(await outcomeOf(orderId)).toBe('sent')
    // Stripe delivers the same event again (a retry), and a different event about the same session arrives: neither
    // sends a second reminder, nor does the sweep afterwards.
    expect(await event.send()).toBe(200)
    expect(await expiredEvent(url).send()).toBe(200)
    await sweep()
    expect(await reminders(user.email)).toHaveLength(1)
    const recorded = await db()
      .selectFrom('processed_stripe_events')
      .select('id')
      .where('type', '=', 'checkout.session.expired')
      .execute()
    expect(recorded.length).toBeGreaterThanOrEqual(2)
  })

  it('never without the tick', async () => {
    const { user, orderId, url } = await cardCheckout(8, false)
    expect(await expiredEvent(url).send()).toBe(200)
    expect(await reminders(user.email)).toEqual([])
    expect(await outcomeOf(orderId)).toBeUndefined()
  })

  it('never when the buyer bought something since the checkout began', async () => {
    const { user, api, orderId, url } = await cardCheckout(9, true)
    // The 24-hour job expired that checkout; the buyer then bought another course by bank transfer (staff confirmed)…
    await expire(db(), orderId)
    const [other] = await pricedCourses(db(), { offset: 10 })
    for (const item of (await api.cart.list())!.items) await api.cart.remove({ itemId: item.id })
    await api.cart.add({ kind: 'course', courseId: other!.id })
    const bought = await api.payments.start({ currency: 'USD', method: 'bank_transfer' })
    await (await caller(admin)).admin.orders.markPaid({ id: bought.orderId })
    // …and Stripe's expiry of the old session arrives late.
    expect(await expiredEvent(url).send()).toBe(200)
    expect(await reminders(user.email)).toEqual([])
    expect(await outcomeOf(orderId)).toBe('bought')
  })
})

describe('one-click unsubscribe (RFC 8058)', () => {
  const serverOrigin = () => new URL(shop.fake.webhookUrl!).origin
  const onServer = (listUnsubscribe: string) => {
    const link = new URL(listUnsubscribe)
    return `${serverOrigin()}${link.pathname}${link.search}`
  }

  it('the mail carries List-Unsubscribe and List-Unsubscribe-Post; a bare POST unsubscribes, again and again', async () => {
    const { user, api, orderId } = await checkout(11, 'card', true)
    await expire(db(), orderId)
    await sweep()
    const [mail] = await reminders(user.email)
    const sent: Parameters<MailTransport['send']>[0][] = []
    const transport: MailTransport = { kind: 'smtp', send: async (message) => void sent.push(message) }
    await deliverOutboxMail({ db: db(), log: captureLog().log, transport, from: 'shop@shop.example' }, mail!.id, {
      number: 1,
      of: 1,
    })
    expect(sent[0]!.headers).toEqual({
      'List-Unsubscribe': `<${mail!.list_unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    })

    const open = await api.payments.start({ currency: 'USD', method: 'bank_transfer', remindMe: true })
    // What a mail provider sends: no cookie, no Origin, no Sec-Fetch-Site, the RFC's form body.
    const post = () =>
      fetch(onServer(mail!.list_unsubscribe!), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      })
    const first = await post()
    expect(first.status).toBe(200)
    expect(await first.text()).toContain('no more cart reminders')
    expect(await outcomeOf(open.orderId)).toBe('unsubscribed')
    expect((await post()).status).toBe(200)
  })

  it('a guessed or malformed token is refused; GET leads to the page with the button', async () => {
    const post = (query: string) =>
      fetch(`${serverOrigin()}/api/mail/unsubscribe${query}`, { method: 'POST', body: 'List-Unsubscribe=One-Click' })
    expect((await post(`?token=${'a'.repeat(40)}`)).status).toBe(404)
    expect((await post('?token=x')).status).toBe(400)
    expect((await post('')).status).toBe(400)
    const token = 'b'.repeat(40)
    const page = await fetch(`${serverOrigin()}/api/mail/unsubscribe?token=${token}`, { redirect: 'manual' })
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toBe(`/cart/reminders/unsubscribe?token=${token}`)
  })
})
