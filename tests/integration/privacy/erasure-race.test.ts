// An account's erasure and a sale that credits them, at the same moment (PostgreSQL only: tests/support/race.ts).
// Each used to read the other's state from before it: the erasure found no earnings yet, the sale no erasure yet, so
// an erased account was credited. The sale now holds its creators against their erasure until it commits, and the
// erasure waits for it: it then finds the earnings and waits for their payout, as a creator asking would be told.
import { afterAll, afterEach, beforeAll, describe, expect } from 'vitest'
import { eraseAccount } from '../../../src-server/flows/account-erasure.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import { advanceClock, resetClock } from '../../../src-server/kernel/clock.ts'
import { createLocalStorage } from '../../../src-server/storage/storage.ts'
import { ACCOUNT_DELETION_COOL_OFF_DAYS } from '../../../src-shared/retention.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { ownedCourse } from '../../support/earnings.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'
import { raceIt, whileHeld } from '../../support/race.ts'

let database: TestDatabase
const db = () => database.db
beforeAll(async () => {
  database = await createTestDatabase()
}, 180_000)
afterAll(() => database.close())
afterEach(() => resetClock())

describe('erasure and a sale at once', () => {
  raceIt('a sale paid while the creator is erased is credited, and the erasure waits for its payout', async () => {
    const creator = await createUser(db())
    const course = await ownedCourse(db(), creator.id, 3000, 'Raced Course')
    const buyer = await createUser(db())
    const order = await placeOrder(db(), {
      userId: buyer.id,
      courses: [course],
      reference: `RACE-${Date.now()}`,
      method: 'bank_transfer',
    })
    await (await callerAs(db(), creator)).privacy.requestDeletion({ password: creator.password })
    await advanceClock(ACCOUNT_DELETION_COOL_OFF_DAYS * 86_400 + 3600)

    // The bank transfer is recorded (its transaction still open) while the deletion job reaches the creator.
    const deps = {
      db: db(),
      storage: createLocalStorage('/tmp/erasure-race-uploads'),
      publicUrl: 'http://x.test',
      log: { info() {}, error() {} },
    }
    const erased = await whileHeld(
      db(),
      (trx) => markPaid(trx, order, { source: 'staff' }),
      () => eraseAccount(deps, creator.id),
      { waiters: 1, maxMs: 3000 },
    )
    const shares = await db().selectFrom('earning_shares').select('creator_id').where('order_id', '=', order).execute()
    // Credited to a live account: the erasure did not run, the earnings block it until they are paid out.
    expect(shares).toEqual([{ creator_id: creator.id }])
    expect(erased).toBe(false)
    const row = await db()
      .selectFrom('users')
      .select('first_name')
      .where('id', '=', creator.id)
      .executeTakeFirstOrThrow()
    expect(row.first_name).not.toBe('Deleted user')
  })
})
