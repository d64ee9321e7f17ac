// A stranger's sign-up link racing the owner's proof of the address (a reset link, Google): the proof commits while
// the link is being used. The link waits for the account's row and then sees the address proven, so it applies
// nothing; without the row lock it read the account as unverified and put the stranger's password on it after the
// owner's commit (raced on PostgreSQL; docs/concurrency-proofs.md).
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { signUp, verifyEmail } from '../../../src-server/auth/accounts.ts'
import { hashPassword, verifyPassword } from '../../../src-server/auth/password.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { mailsTo } from '../../support/outbox.ts'
import { raceIt, whileHeld } from '../../support/race.ts'

let database: TestDatabase
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

describe('a sign-up link and the address proven another way at the same time', () => {
  raceIt('applies nothing when the proof commits while the link is used', async () => {
    const email = `raced-${Date.now()}@example.test`
    const strangersBrowser = 'strangersbrowsersecretabcdefghij'
    await signUp(
      db(),
      { firstName: 'Eve', lastName: 'Stranger', email, password: 'strangers-pass-1', acceptTerms: true },
      'http://shop.test',
      strangersBrowser,
    )
    const [mail] = await mailsTo(db(), email)
    const token = /\/verify-email\?token=([a-z0-9]+)/.exec(mail!.text_body)![1]!
    const ownersHash = await hashPassword('owners-new-pass-1')

    // The owner's reset is written and not yet committed when the stranger's link is used.
    const outcome = await whileHeld(
      db(),
      async (trx) => {
        await trx
          .updateTable('users')
          .set({ email_verified: true, password_hash: ownersHash })
          .where('email', '=', email)
          .execute()
      },
      () => verifyEmail(db(), token, { browserSecret: strangersBrowser }),
      { waiters: 1 },
    )
    expect(outcome).toBeNull()
    const account = await db()
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
    expect(await verifyPassword(account.password_hash!, 'owners-new-pass-1')).toBe(true)
  })
})
