// The migration that makes one school at a time prove an SSO e-mail domain (decision 0091): where two schools hold a
// verified proof of one domain (saved before the rule counted proofs), the earliest verified keeps it and the other
// goes back to unverified; from then on a second verified proof of the domain is refused by the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { down, up } from '../../../db/migrations/2026_12_12_0300_sso_domain_proof_rechecks.ts'
import { ensureSchool } from '../../../src-server/creators/schools.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'

let database: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

describe('2026_12_12_0300_sso_domain_proof_rechecks', () => {
  it('keeps the earliest of two verified proofs of one domain, unverifies the other, then holds one per domain', async () => {
    const db = database.db
    await down(db)
    const school = async () => (await ensureSchool(db, (await createCreator(db, { plan: 'enterprise' })).id)).id
    const [first, second, alone] = [await school(), await school(), await school()]
    const proof = (schoolId: string, domain: string, verifiedAt: Date | null) =>
      db
        .insertInto('school_sso_domain_proofs')
        .values({
          school_id: schoolId,
          domain,
          token: `sf-${schoolId.slice(0, 8)}`,
          verified_at: verifiedAt,
          checked_at: verifiedAt,
          last_outcome: verifiedAt ? 'verified' : null,
        })
        .execute()
    await proof(second, 'twice.test', new Date('2026-12-05T10:00:00Z'))
    await proof(first, 'twice.test', new Date('2026-12-01T10:00:00Z'))
    await proof(alone, 'twice.test', null)
    await proof(second, 'own.test', new Date('2026-12-05T10:00:00Z'))

    await up(db)
    const rows = await db
      .selectFrom('school_sso_domain_proofs')
      .select(['school_id', 'domain', 'verified_at', 'last_outcome', 'failing_since', 'lapsed_at'])
      .where('school_id', 'in', [first, second, alone])
      .execute()
    const byKey = Object.fromEntries(rows.map((row) => [`${row.school_id}:${row.domain}`, row]))
    expect(byKey[`${first}:twice.test`]).toMatchObject({ verified_at: new Date('2026-12-01T10:00:00Z') })
    expect(byKey[`${second}:twice.test`]).toMatchObject({ verified_at: null, last_outcome: null })
    expect(byKey[`${alone}:twice.test`]).toMatchObject({ verified_at: null })
    expect(byKey[`${second}:own.test`]).toMatchObject({ verified_at: new Date('2026-12-05T10:00:00Z') })
    expect(rows.every((row) => row.failing_since === null && row.lapsed_at === null)).toBe(true)
    await expect(
      db
        .updateTable('school_sso_domain_proofs')
        .set({ verified_at: new Date() })
        .where('school_id', '=', second)
        .where('domain', '=', 'twice.test')
        .execute(),
    ).rejects.toMatchObject({ code: '23505' })
  })
})
