// The per-domain DNS proofs migration on schools that had single sign-on before it (decision 0062): every allowed
// domain gets its own token, unverified — except a domain equal to the school's verified custom domain (the same zone,
// proven by a TXT record at _skillforge-verify.<domain>). A verified custom domain under an allowed domain proves
// nothing for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { down, up } from '../../../db/migrations/2026_12_11_0300_school_sso_domain_proofs.ts'
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

describe('2026_12_11_0300_school_sso_domain_proofs', () => {
  it('gives each allowed domain its own token, carrying over only a verified custom domain equal to it', async () => {
    const db = database.db
    await down(db)
    const verifiedAt = new Date('2026-12-01T10:00:00Z')
    const schoolWith = async (domains: string[], customDomain: string | null) => {
      const school = await ensureSchool(db, (await createCreator(db, { plan: 'enterprise' })).id)
      await db
        .insertInto('school_sso')
        .values({
          school_id: school.id,
          issuer: 'https://login.example.test',
          client_id: 'client',
          client_secret_sealed: 'raw:c2VjcmV0',
          allowed_domains: JSON.stringify(domains),
        })
        .execute()
      if (customDomain) {
        await db
          .insertInto('school_domains')
          .values({ school_id: school.id, hostname: customDomain, verification_token: 'sf-x', verified_at: verifiedAt })
          .execute()
      }
      return school.id
    }
    const exact = await schoolWith(['acme.test', 'acme-labs.test'], 'acme.test')
    const parent = await schoolWith(['other.test'], 'learn.other.test')
    const none = await schoolWith(['plain.test'], null)

    await up(db)
    const proofs = await db
      .selectFrom('school_sso_domain_proofs')
      .select(['school_id', 'domain', 'token', 'verified_at', 'last_outcome'])
      .where('school_id', 'in', [exact, parent, none])
      .orderBy('domain')
      .execute()
    expect(proofs.map((row) => [row.school_id, row.domain, row.verified_at, row.last_outcome])).toEqual([
      [exact, 'acme-labs.test', null, null],
      [exact, 'acme.test', verifiedAt, 'verified'],
      [parent, 'other.test', null, null],
      [none, 'plain.test', null, null],
    ])
    for (const row of proofs) expect(row.token).toMatch(/^sf-[\w-]{24}$/)
    expect(new Set(proofs.map((row) => row.token)).size).toBe(proofs.length)
  })
})
