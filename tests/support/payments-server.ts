// The real server on a free port with card and PayPal payments against the local fake Stripe, whose webhooks go
// to that server. For tests of checkout and of the Stripe webhook.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Writable } from 'node:stream'
import { setUpPayouts } from '../../src-server/flows/creator-payouts.ts'
import { defaultPayments, type PaymentsConfig } from '../../src-server/payments/config.ts'
import { createStripeApi } from '../../src-server/payments/stripe.ts'
import { createServer, type Server } from '../../src-server/server.ts'
import { createCreator, type PlanId } from './creator-courses.ts'
import { createTestDatabase, type TestDatabase } from './db.ts'
import { type FakeStripe, startFakeStripe } from './fake-stripe.ts'
import type { shopCaller } from './shop.ts'

export interface PaymentsServer {
  database: TestDatabase
  fake: FakeStripe
  server: Server
  payments: PaymentsConfig
  close(): Promise<void>
}

/**
 * `logStream` receives the server's JSON log lines (info and up); without it the server logs nothing. `stripeTax`:
 * STRIPE_TAX=true (Checkout asks for automatic_tax; the fake charges 20% in two jurisdictions). `staffTwoFactor`: STAFF_2FA
 * (staff downloads without a second factor need 'optional').
 */
export async function startPaymentsServer(
  options: { logStream?: Writable; stripeTax?: boolean; staffTwoFactor?: 'required' | 'optional' } = {},
): Promise<PaymentsServer> {
  const database = await createTestDatabase()
  const fake = await startFakeStripe()
  const payments: PaymentsConfig = {
    ...defaultPayments,
    stripe: createStripeApi({ secretKey: fake.secretKey, apiUrl: fake.url }),
    stripeWebhookSecret: fake.webhookSecret,
    paypalMeUrl: 'https://paypal.me/skillforge',
    stripeTax: options.stripeTax ?? false,
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'storefront-pay-'))
  const server = await createServer({
    env: {
      NODE_ENV: 'test',
      PORT: 0,
      HOST: '127.0.0.1',
      CLIENT_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      ...(options.staffTwoFactor ? { STAFF_2FA: options.staffTwoFactor } : {}),
    },
    db: database.db,
    logger: options.logStream ? { level: 'info', stream: options.logStream } : false,
    payments,
  })
  fake.webhookUrl = `${await server.start()}/api/stripe/webhook`
  return {
    database,
    fake,
    server,
    payments,
    async close() {
      await server.stop()
      await fake.close()
      await database.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * The buyer's cart paid by card as Stripe does it: checkout opens a session, the fake completes it and delivers
 * checkout.session.completed to the server's webhook (which must answer 200). Gives back the order's id.
 */
export async function payCartByCard(fake: FakeStripe, caller: Awaited<ReturnType<typeof shopCaller>>): Promise<string> {
  const started = await caller.payments.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error(`expected a card checkout, got ${started.method}`)
  const status = await fake.deliver('checkout.session.completed', fake.completeSession(sessionIdOf(started.url)))
  if (status !== 200) throw new Error(`the webhook answered ${status}`)
  return started.orderId
}

/** Delivers a signed event to the webhook as Stripe does; it must answer 200. Answers the outcome it reports. */
export async function webhookOutcome(fake: FakeStripe, type: string, object: unknown): Promise<string> {
  const signed = fake.signedEvent(type, object)
  const response = await fetch(fake.webhookUrl!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
    body: signed.payload,
  })
  if (response.status !== 200) throw new Error(`the webhook answered ${response.status}`)
  return ((await response.json()) as { outcome: string }).outcome
}

/** The Checkout Session id at the end of a hosted payment page's URL. */
export const sessionIdOf = (url: string) => new URL(url).pathname.split('/').pop()!

/**
 * An approved creator (on `plan`, if given) whose Stripe Express account is onboarded at the fake and whose
 * account.updated has reached the webhook: ready to be paid out.
 */
export async function onboardedCreator(shop: PaymentsServer, plan?: PlanId) {
  const db = shop.database.db
  const creator = await createCreator(db, { plan })
  await setUpPayouts(db, shop.payments.stripe, creator, {
    returnUrl: 'http://localhost/studio/payouts?return=1',
    refreshUrl: 'http://localhost/studio/payouts?refresh=1',
  })
  const account = await db
    .selectFrom('creator_payout_accounts')
    .select('stripe_account_id')
    .where('creator_id', '=', creator.id)
    .executeTakeFirstOrThrow()
  shop.fake.connect.completeOnboarding(account.stripe_account_id)
  await shop.fake.flush()
  return { creator, accountId: account.stripe_account_id }
}
