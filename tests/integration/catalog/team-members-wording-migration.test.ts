// The pricing table's Team members row (2026-12-15) on a database seeded before: "1" and "3" become "Just you" and
// "You + 3", as the studio counts a team (besides the owner); words staff changed since are left as they are.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { down, up } from '../../../db/migrations/2026_12_15_0100_team_members_wording.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { CREATOR_PLAN_LIMITS } from '../../../src-shared/creator-plans.ts'
import { createTestDatabase } from '../../support/db.ts'

let database: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

const teamRow = () =>
  database.db
    .selectFrom('plan_comparison_features')
    .select(['starter', 'professional', 'enterprise'])
    .where('name', '=', 'Team members')
    .executeTakeFirstOrThrow()

describe('2026_12_15_0100_team_members_wording', () => {
  it('rewords the row seeded before, matching the limits, and leaves words staff changed', async () => {
    expect(await teamRow()).toEqual({ starter: 'Just you', professional: 'You + 3', enterprise: 'Unlimited' })
    expect(CREATOR_PLAN_LIMITS.basic.teamMembers).toBe(0)
    expect(CREATOR_PLAN_LIMITS.pro.teamMembers).toBe(3)

    await down(database.db)
    expect(await teamRow()).toMatchObject({ starter: '1', professional: '3' })
    await up(database.db)
    expect(await teamRow()).toMatchObject({ starter: 'Just you', professional: 'You + 3' })

    await sql`update plan_comparison_features set starter = '"Owner only"'::jsonb where name = 'Team members'`.execute(
      database.db,
    )
    await down(database.db)
    await up(database.db)
    expect(await teamRow()).toMatchObject({ starter: 'Owner only', professional: 'You + 3' })
  })
})
