// Fixed-shape hot queries (a course by id, the categories, the kept counts) compiled to SQL once instead of being
// rebuilt by Kysely on every request: the first call compiles the query with marker values standing for the
// arguments and remembers where each one lands among the parameters; later calls only fill them in.
import { type Compilable, CompiledQuery } from 'kysely'
import { type DB, poolOf } from './db.ts'
import { prepareStatement, statementName } from './prepared-statements.ts'

type Slot = { arg: number } | { value: unknown }

export function compiledOnce<A extends unknown[], R>(build: (db: DB, ...args: A) => Compilable<R>) {
  let template: { sql: string; slots: Slot[]; name: string | undefined } | undefined
  return async (db: DB, ...args: A): Promise<R[]> => {
    if (!template) {
      const markers = args.map((_, index) => `\u0000compiled-once-argument-${index}`) as A
      const compiled = build(db, ...markers).compile()
      const slots = compiled.parameters.map((value): Slot => {
        const arg = markers.indexOf(value)
        return arg >= 0 ? { arg } : { value }
      })
      const used = new Set(slots.flatMap((slot) => ('arg' in slot ? [slot.arg] : [])))
      if (used.size !== args.length) throw new Error('compiledOnce: every argument must be a query parameter')
      prepareStatement(compiled.sql)
      template = { sql: compiled.sql, slots, name: statementName(compiled.sql) }
    }
    const parameters = template.slots.map((slot) => ('arg' in slot ? args[slot.arg] : slot.value))
    // On a PostgreSQL pool opened by kernel/db.ts, straight to node-postgres (its pool takes a connection, sends the
    // statement by name and gives it back): the rows are the same, without Kysely's connection provider, abort
    // wrapper and result transform, a good part of a cached catalogue answer's allocations (issue 37). Transactions,
    // PGlite and other Kysely instances (the tests' and the bench's, with their query logs) go through Kysely.
    const pool = poolOf(db)
    if (pool) {
      const { sql, name } = template
      const result = name
        ? await pool.query<R & object>({ name, text: sql, values: parameters })
        : await pool.query<R & object>(sql, parameters)
      return result.rows
    }
    const result = await db.executeQuery<R>(CompiledQuery.raw(template.sql, parameters))
    return result.rows
  }
}

/**
 * A query whose SQL and parameters follow from a small request (the catalogue page: sort, filters, term, page),
 * compiled once per distinct request and remembered, up to `size` requests (the least recently used go first).
 * The database still runs it each time; only Kysely's building and compiling are saved.
 */
export function compiledPerRequest<Q, R>(build: (db: DB, request: Q) => Compilable<R>, size = 500) {
  const caches = new WeakMap<DB, Map<string, CompiledQuery<R>>>()
  return async (db: DB, request: Q): Promise<R[]> => {
    let cache = caches.get(db)
    if (!cache) {
      cache = new Map()
      caches.set(db, cache)
    }
    const key = JSON.stringify(request)
    let compiled = cache.get(key)
    if (compiled) cache.delete(key)
    else {
      compiled = build(db, request).compile()
      prepareStatement(compiled.sql)
    }
    cache.set(key, compiled) // most recently used last
    if (cache.size > size) cache.delete(cache.keys().next().value as string)
    return (await db.executeQuery(compiled)).rows
  }
}
