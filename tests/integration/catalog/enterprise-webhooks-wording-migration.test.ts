// /pricing names webhooks on Enterprise, the only plan that includes them (decision 0141): a fresh database is seeded
// with the words, and one seeded before gets them from the migration, as the pricing page reads them (plans.list);
// words staff changed since are left as they are.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { down, up } from '../../../db/migrations/2026_12_30_0100_enterprise_webhooks_wording.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { CREATOR_PLAN_FEATURES } from '../../../src-shared/creator-plans.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs } from '../../support/factories.ts'

let database: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

/** What /pricing shows of Enterprise: its card's features and the comparison rows it ticks that others do not. */
async function pricing() {
  const { plans, comparison } = await (await callerAs(database.db, null)).plans.list()
  return {
    card: plans.find((plan) => plan.id === 'enterprise')?.features ?? [],
    rows: comparison
      .filter((row) => row.enterprise === true && row.professional === false && row.starter === false)
      .map((row) => row.name),
  }
}

describe('2026_12_30_0100_enterprise_webhooks_wording', () => {
  it('names webhooks on the Enterprise card and comparison row, seeded or migrated, and leaves words staff changed', async () => {
    expect(CREATOR_PLAN_FEATURES.enterprise).toContain('webhooks')
    expect(CREATOR_PLAN_FEATURES.pro).not.toContain('webhooks')
    const now = await pricing()
    expect(now.card).toContain('Full API access, webhooks and single sign-on')
    expect(now.rows).toEqual(['API access, webhooks and single sign-on'])

    // A database seeded before: the old words, then the migration.
    await down(database.db)
    expect(await pricing()).toMatchObject({
      card: expect.arrayContaining(['Full API access and single sign-on']),
      rows: ['API access and single sign-on'],
    })
    await up(database.db)
    expect(await pricing()).toEqual(now)
    // The card keeps its order: only the one feature changed.
    expect(now.card.indexOf('Full API access, webhooks and single sign-on')).toBe(4)

    await sql`update plan_comparison_features set name = 'Integrations' where name = 'API access, webhooks and single sign-on'`.execute(
      database.db,
    )
    await down(database.db)
    await up(database.db)
    expect((await pricing()).rows).toEqual(['Integrations'])
  })
})
