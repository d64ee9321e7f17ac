// The payout-keys migration (decision 0127): a payout Stripe may have made before it (sending, unconfirmed) keeps the
// idempotency key its tries used, so its retry is still the same transfer; any other payout takes a new key on its
// next try. Its down migration gives a withdrawn payout back as failed.
import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrations } from '../../../db/migrations/index.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { openTestPglite } from '../../support/test-pglite.ts'

const KEYS_MIGRATION = '2026_12_25_0000_payout_fit_and_keys'
const before = Object.keys(migrations).filter((name) => name < KEYS_MIGRATION)

let handle: DatabaseHandle
const migrator = () => new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } })

beforeAll(async () => {
  handle = await openTestPglite()
  expect((await migrator().migrateTo(before.at(-1) as string)).error).toBeUndefined()
})
afterAll(() => handle.close())

describe('payout keys migration', () => {
  it('keeps the old key of a payout Stripe may have made, and none of the others', async () => {
    const user = await sql<{ id: string }>`insert into users (email, first_name, last_name)
      values ('keys@example.com', 'Key', 'Holder') returning id`.execute(handle.db)
    const creatorId = user.rows[0]!.id
    for (const [month, status] of [
      ['2026-09', 'unconfirmed'],
      ['2026-10', 'sending'],
      ['2026-11', 'failed'],
    ]) {
      await sql`insert into creator_payouts (creator_id, month, currency, amount_minor, status, stripe_account_id)
        values (${creatorId}, ${month}, 'USD', 5000, ${status}, 'acct_keys')`.execute(handle.db)
    }
    expect((await migrator().migrateTo(KEYS_MIGRATION)).error).toBeUndefined()
    const keys = await sql<{ month: string; transfer_key: string | null }>`
      select month, transfer_key from creator_payouts order by month`.execute(handle.db)
    expect(keys.rows).toEqual([
      { month: '2026-09', transfer_key: `payout:${creatorId}:2026-09:USD` },
      { month: '2026-10', transfer_key: `payout:${creatorId}:2026-10:USD` },
      { month: '2026-11', transfer_key: null },
    ])

    await sql`update creator_payouts set status = 'withdrawn' where month = '2026-11'`.execute(handle.db)
    expect((await migrator().migrateDown()).error).toBeUndefined()
    const statuses = await sql<{ status: string }>`select status from creator_payouts order by month`.execute(handle.db)
    expect(statuses.rows.map((row) => row.status)).toEqual(['unconfirmed', 'sending', 'failed'])
    expect((await migrator().migrateToLatest()).error).toBeUndefined()
  })
})
