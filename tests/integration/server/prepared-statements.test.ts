// Hot queries go to PostgreSQL as named statements (decision 0030): parsed once per connection, then only bound and
// executed. Checked on the server itself (pg_prepared_statements lists a session's named statements), through a
// pool of one connection so every query below shares the session. PGlite has no wire protocol here: skipped there.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { searchCatalogue } from '../../../src-server/catalog/catalogue-page.ts'
import { findPublishedCourse } from '../../../src-server/catalog/repository.ts'
import { type DatabaseHandle, openDatabase } from '../../../src-server/kernel/db.ts'
import { statementName } from '../../../src-server/kernel/prepared-statements.ts'
import { catalogueQuerySchema } from '../../../src-shared/schemas/catalog.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import '../../support/provided.ts'

const onPostgres = inject('testDb').kind === 'postgres'
let database: TestDatabase
let single: DatabaseHandle

beforeAll(async () => {
  if (!onPostgres) return
  database = await createTestDatabase()
  single = await openDatabase({ databaseUrl: database.url, poolSize: 1 })
})
afterAll(async () => {
  await single?.close()
  await database?.close()
})

const preparedInSession = async () =>
  (
    await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(
      single.db,
    )
  ).rows

describe.runIf(onPostgres)('prepared hot statements (PostgreSQL)', () => {
  it('sends the catalogue page and a course by name, parsed once, with the same rows as unnamed SQL', async () => {
    const query = catalogueQuerySchema.parse({ sort: 'newest' })
    const first = await searchCatalogue(single.db, query)
    const second = await searchCatalogue(single.db, query)
    expect(second).toEqual(first)
    const course = await findPublishedCourse(single.db, first.rows[0]!.id)
    expect(course?.id).toBe(first.rows[0]!.id)

    const prepared = await preparedInSession()
    // The version read, the categories, the facet groups, the page, and the course: each once, under its name.
    expect(prepared.map((p) => p.statement.split(' from ')[0]!.slice(0, 40)).sort()).toEqual([
      'select "category_id", "price_band", "rat', // the facet groups
      'select "id", "slug", "name"', // the categories
      'select "instructors"."title" as "instruc', // the course
      'select "version"', // the catalogue's version
      'with "page" as materialized (select "cou', // the page
    ])
    for (const { name, statement } of prepared) expect(statementName(statement)).toBe(name)
    expect(new Set(prepared.map((p) => p.name)).size).toBe(prepared.length)

    // The same page through another connection that prepares nothing gives the same answer.
    expect(await searchCatalogue(database.db, query)).toEqual(first)
  })

  it('leaves every other statement unnamed', async () => {
    const before = await preparedInSession()
    await single.db.selectFrom('users').select('id').where('email', '=', 'nobody@example.com').execute()
    expect(await preparedInSession()).toEqual(before)
  })
})
