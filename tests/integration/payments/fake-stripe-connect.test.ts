// The fake Stripe's Connect half, driven by the real Stripe SDK (the same client the app uses): what issue 31's
// payouts will call must parse as Stripe's own answers do, refuse what Stripe refuses, and honour idempotency keys.
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeStripe, startFakeStripe } from '../../support/fake-stripe.ts'

let fake: FakeStripe
let stripe: Stripe

beforeAll(async () => {
  fake = await startFakeStripe()
  const base = new URL(fake.url)
  stripe = new Stripe(fake.secretKey, { host: base.hostname, port: base.port, protocol: 'http', maxNetworkRetries: 0 })
})
afterAll(() => fake.close())

async function onboardedAccount() {
  const account = await stripe.accounts.create({
    controller: {
      stripe_dashboard: { type: 'express' },
      fees: { payer: 'application' },
      losses: { payments: 'application' },
    },
    country: 'US',
    email: 'creator@example.com',
  })
  fake.connect.completeOnboarding(account.id)
  return account
}

describe('fake Stripe Connect', () => {
  it('creates an Express account that needs onboarding, and an account link whose page completes it', async () => {
    const account = await stripe.accounts.create({ type: 'express', country: 'GB', email: 'a@example.com' })
    expect(account).toMatchObject({
      object: 'account',
      type: 'express',
      charges_enabled: false,
      payouts_enabled: false,
    })
    expect(account.requirements?.currently_due).toContain('external_account')

    const link = await stripe.accountLinks.create({
      account: account.id,
      refresh_url: 'http://127.0.0.1/studio/payouts?refresh=1',
      return_url: 'http://127.0.0.1/studio/payouts?return=1',
      type: 'account_onboarding',
    })
    expect(link.object).toBe('account_link')
    const page = await fetch(link.url)
    expect(await page.text()).toContain('Set up payouts')
    const submitted = await fetch(link.url, { method: 'POST', redirect: 'manual' })
    expect(submitted.status).toBe(302)
    expect(submitted.headers.get('location')).toBe('http://127.0.0.1/studio/payouts?return=1')

    const after = await stripe.accounts.retrieve(account.id)
    expect(after).toMatchObject({ details_submitted: true, charges_enabled: true, payouts_enabled: true })
    expect(after.requirements?.currently_due).toEqual([])
    // account.updated is queued for the Connect webhook, naming the connected account.
    expect(fake.queued.at(-1)).toMatchObject({ type: 'account.updated', account: account.id })
    const login = await stripe.accounts.createLoginLink(account.id)
    expect(login.url).toContain('/connect/express/')
  })

  it('transfers once per idempotency key, refuses a changed request under the same key, and reverses in parts', async () => {
    const account = await onboardedAccount()
    const params = { amount: 12_345, currency: 'usd', destination: account.id, transfer_group: 'payout-2026-11' }
    const first = await stripe.transfers.create(params, { idempotencyKey: 'payout:creator-1:2026-11:usd' })
    const again = await stripe.transfers.create(params, { idempotencyKey: 'payout:creator-1:2026-11:usd' })
    expect(again.id).toBe(first.id)
    expect([...fake.connect.transfers.values()].filter((t) => t.destination === account.id)).toHaveLength(1)
    await expect(
      stripe.transfers.create({ ...params, amount: 1 }, { idempotencyKey: 'payout:creator-1:2026-11:usd' }),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' })

    const bt = await stripe.balanceTransactions.retrieve(first.balance_transaction as string)
    expect(bt).toMatchObject({ type: 'transfer', amount: -12_345, net: -12_345, fee: 0 })

    await stripe.transfers.createReversal(first.id, { amount: 345 })
    await expect(stripe.transfers.createReversal(first.id, { amount: 12_001 })).rejects.toThrow(/cannot reverse more/)
    const reversed = await stripe.transfers.retrieve(first.id)
    expect(reversed).toMatchObject({ amount_reversed: 345, reversed: false })
  })

  it('refuses a transfer to an account that has not finished onboarding, beyond the balance, and during an outage', async () => {
    const pending = await stripe.accounts.create({ type: 'express' })
    await expect(stripe.transfers.create({ amount: 100, currency: 'usd', destination: pending.id })).rejects.toThrow(
      /capabilities enabled: transfers/,
    )
    const account = await onboardedAccount()
    fake.connect.balance.set('gbp', 500)
    await expect(
      stripe.transfers.create({ amount: 501, currency: 'gbp', destination: account.id }),
    ).rejects.toMatchObject({
      code: 'balance_insufficient',
    })
    fake.connect.failNextTransfer()
    await expect(stripe.transfers.create({ amount: 100, currency: 'gbp', destination: account.id })).rejects.toThrow()
    const ok = await stripe.transfers.create({ amount: 500, currency: 'gbp', destination: account.id })
    expect(ok.amount).toBe(500)
    expect((await stripe.balance.retrieve()).available.find((b) => b.currency === 'gbp')?.amount).toBe(0)
  })

  it("reports Stripe's fee on a charge as its balance transaction", async () => {
    const bt = fake.connect.recordCharge('ch_test_1', 10_000, 'usd')
    const read = await stripe.balanceTransactions.retrieve(bt.id)
    expect(read).toMatchObject({ type: 'charge', amount: 10_000, fee: 320, net: 9_680 })
    expect(read.fee_details[0]).toMatchObject({ type: 'stripe_fee', amount: 320 })
  })
})
