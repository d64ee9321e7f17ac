// Erasure deletes the person's Stripe customer (issue 28, decision 0066): DELETE /v1/customers/:id through the real
// adapter against the local fake Stripe, after the erasure has committed; a customer already gone counts as done; a
// failing Stripe leaves it for the next run, and rerunning the job calls Stripe no more once it is done.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { runAccountDeletions } from '../../../src-server/flows/account-erasure.ts'
import { advanceClock, resetClock } from '../../../src-server/kernel/clock.ts'
import { createStripeApi } from '../../../src-server/payments/stripe.ts'
import { createLocalStorage } from '../../../src-server/storage/storage.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { type FakeStripe, startFakeStripe } from '../../support/fake-stripe.ts'

let database: TestDatabase
let fake: FakeStripe
const db = () => database.db
beforeAll(async () => {
  ;[database, fake] = await Promise.all([createTestDatabase(), startFakeStripe()])
}, 180_000)
afterAll(async () => {
  await fake.close()
  await database.close()
})
afterEach(() => resetClock())

const DAY = 24 * 3600
const errors: unknown[] = []
const log = { info: () => {}, error: (entry: unknown) => void errors.push(entry) }
const job = (withStripe = true) =>
  runAccountDeletions({
    db: db(),
    storage: createLocalStorage('/tmp/erasure-stripe-test-uploads'),
    log,
    publicUrl: 'http://storefront.test',
    stripe: withStripe ? createStripeApi({ secretKey: fake.secretKey, apiUrl: fake.url }) : null,
  })
const deletes = () => fake.calls.filter((call) => call.startsWith('DELETE /v1/customers/'))

/** A person who had a card plan (its Stripe customer at the fake), has cancelled it and asked to be deleted. */
async function formerMemberAskingDeletion(customerIds: string[]) {
  const person = await createUser(db())
  for (const customerId of customerIds) {
    await db()
      .insertInto('subscriptions')
      .values({
        user_id: person.id,
        plan_id: 'basic',
        billing_cycle: 'monthly',
        status: 'cancelled',
        ended_at: new Date(),
        stripe_customer_id: customerId,
      })
      .execute()
  }
  await (await callerAs(db(), person)).privacy.requestDeletion({ password: person.password })
  return person
}

describe('erasure and the Stripe customer', () => {
  it('deletes the customer at Stripe once; a Stripe outage is retried by the next run', async () => {
    const customer = fake.billing.customerFor(`erase-${Date.now()}@example.com`)
    const gone = `cus_test_never_${Date.now()}`
    const person = await formerMemberAskingDeletion([customer.id, gone])
    const stateOf = () =>
      db()
        .selectFrom('account_deletions')
        .select(['erased_at', 'stripe_deleted_at'])
        .where('user_id', '=', person.id)
        .executeTakeFirstOrThrow()

    // Within the cool-off nothing is deleted at Stripe.
    await job()
    expect(fake.billing.customers.has(customer.id)).toBe(true)
    expect(deletes()).toEqual([])

    await advanceClock(15 * DAY)
    fake.failNextCustomerWrite()
    const first = await job()
    // The account is erased on time even though Stripe failed; the customer waits for the next run.
    expect(first).toMatchObject({ erased: 1, stripeCustomersDeleted: 0, stripeFailed: 1 })
    expect((await stateOf()).erased_at).not.toBeNull()
    expect((await stateOf()).stripe_deleted_at).toBeNull()
    expect(fake.billing.customers.has(customer.id)).toBe(true)
    expect(JSON.stringify(errors)).not.toContain(fake.secretKey)

    const second = await job()
    expect(second).toMatchObject({ erased: 0, stripeCustomersDeleted: 1, stripeFailed: 0 })
    expect(fake.billing.customers.has(customer.id)).toBe(false)
    expect((await stateOf()).stripe_deleted_at).not.toBeNull()
    // The fake answers 404 for the deleted customer, as Stripe does; the never-known id counted as done too.
    const again = await fetch(`${fake.url}/v1/customers/${customer.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${fake.secretKey}` },
    })
    expect(again.status).toBe(404)
    expect((await again.json()).error.code).toBe('resource_missing')

    // A rerun asks Stripe nothing more.
    const callsBefore = deletes().length
    expect(await job()).toMatchObject({ erased: 0, stripeCustomersDeleted: 0, stripeFailed: 0 })
    expect(deletes().length).toBe(callsBefore)
  })

  it('a run without Stripe erases the account and leaves the customer for a run that has it', async () => {
    const customer = fake.billing.customerFor(`later-${Date.now()}@example.com`)
    const person = await formerMemberAskingDeletion([customer.id])
    const noCustomer = await formerMemberAskingDeletion([])
    await advanceClock(15 * DAY)
    expect(await job(false)).toMatchObject({ erased: 2, stripeCustomersDeleted: 0 })
    expect(fake.billing.customers.has(customer.id)).toBe(true)
    const done = await db()
      .selectFrom('account_deletions')
      .select(['user_id', 'stripe_deleted_at'])
      .where('user_id', 'in', [person.id, noCustomer.id])
      .execute()
    expect(done.find((row) => row.user_id === noCustomer.id)?.stripe_deleted_at).not.toBeNull()
    expect(done.find((row) => row.user_id === person.id)?.stripe_deleted_at).toBeNull()
    expect(await job()).toMatchObject({ stripeCustomersDeleted: 1 })
    expect(fake.billing.customers.has(customer.id)).toBe(false)
  })
})
