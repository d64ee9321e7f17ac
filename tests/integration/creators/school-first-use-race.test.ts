// A creator's school is made on first use (ensureSchool), and the studio's first page asks for it from several
// queries at once. Two makers meeting on the slug's unique key (the same free slug, read before either inserted)
// answered a 500 ("duplicate key value violates unique constraint schools_slug_key", seen in an e2e run's log): the
// insert's conflict clause named only the owner's key. PostgreSQL only (tests/support/race.ts): another school's
// uncommitted row holds the slug while the maker inserts, so the maker has read the slug as free and must wait.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { ensureSchool } from '../../../src-server/creators/schools.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { raceIt, whileHeld } from '../../support/race.ts'

let database: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

describe('a school made on first use', () => {
  raceIt('takes the next free address when another school takes its slug at the same moment', async () => {
    const db = database.db
    const creator = await createCreator(db)
    const { slug } = await db
      .selectFrom('instructors')
      .innerJoin('creators', 'creators.instructor_id', 'instructors.id')
      .select('instructors.slug')
      .where('creators.user_id', '=', creator.id)
      .executeTakeFirstOrThrow()
    const other = await createUser(db)

    const school = await whileHeld(
      db,
      (trx) => sql`insert into schools (owner_id, name, slug) values (${other.id}, 'Other', ${slug})`.execute(trx),
      () => ensureSchool(db, creator.id),
      { waiters: 1 },
    )
    expect(school.ownerId).toBe(creator.id)
    expect(school.slug).not.toBe(slug)
    expect(school.slug.startsWith(slug)).toBe(true)
    const rows = await db.selectFrom('schools').select(['owner_id', 'slug']).where('slug', 'like', `${slug}%`).execute()
    expect(rows.map((row) => row.owner_id).sort()).toEqual([creator.id, other.id].sort())
  })
})
