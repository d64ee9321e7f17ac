import { type CompiledQuery, Kysely, PostgresDialect } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { Database } from '../../db/types.ts'
import { compiledOnce, compiledPerRequest } from '../../src-server/kernel/compiled-query.ts'
import type { DB } from '../../src-server/kernel/db.ts'

/** A Kysely that compiles for PostgreSQL and hands every executed query to `seen` instead of a database. */
function recordingDb(seen: CompiledQuery[]): DB {
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: {} as never }) })
  const executeQuery = async (query: CompiledQuery) => {
    seen.push(query)
    return { rows: [] }
  }
  return { selectFrom: db.selectFrom.bind(db), executeQuery } as unknown as DB
}

describe('compiledOnce', () => {
  it('builds the query once and fills each call’s arguments into their parameters, constants kept', async () => {
    const seen: CompiledQuery[] = []
    let builds = 0
    const query = compiledOnce((db: DB, word: string, limit: number) => {
      builds++
      return db
        .selectFrom('catalog_word_counts')
        .select('courses')
        .where('courses', '>', 0)
        .where('word', '=', word)
        .limit(limit)
    })
    const db = recordingDb(seen)
    await query(db, 'react', 5)
    await query(db, 'design', 7)
    expect(builds).toBe(1)
    expect(seen[0]?.sql).toBe(seen[1]?.sql)
    expect(seen[0]?.parameters).toEqual([0, 'react', 5])
    expect(seen[1]?.parameters).toEqual([0, 'design', 7])
  })

  it('refuses a builder that does not send an argument as a parameter', async () => {
    const query = compiledOnce((db: DB, _unused: string) => db.selectFrom('categories').select('id'))
    await expect(query(recordingDb([]), 'x')).rejects.toThrow(/every argument/)
  })
})

describe('compiledPerRequest', () => {
  it('compiles each distinct request once, remembers the most recent ones and forgets the least recently used', async () => {
    const seen: CompiledQuery[] = []
    const built: string[] = []
    const query = compiledPerRequest((db: DB, request: { word: string }) => {
      built.push(request.word)
      return db.selectFrom('catalog_word_counts').select('courses').where('word', '=', request.word)
    }, 2)
    const db = recordingDb(seen)
    for (const word of ['react', 'react', 'design', 'react', 'sql', 'design', 'react']) await query(db, { word })
    // react, design: compiled; react: remembered; sql pushes out design (react was used after it); design again;
    // react was pushed out by design.
    expect(built).toEqual(['react', 'design', 'sql', 'design', 'react'])
    expect(seen.map((q) => q.parameters)).toEqual(
      ['react', 'react', 'design', 'react', 'sql', 'design', 'react'].map((word) => [word]),
    )
    expect(new Set(seen.map((q) => q.sql)).size).toBe(1)
  })
})
