// Opens the database: PGlite under DATA_DIR when no DATABASE_URL is given, else a node-postgres pool.
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { Kysely, PGliteDialect, PostgresDialect, sql, type Transaction } from 'kysely'
import pg from 'pg'
import type { Database } from '../../db/types.ts'
import { lockDataDir } from './data-dir-lock.ts'
import { PreparingClient } from './prepared-statements.ts'

/** The database or a transaction on it (a Transaction is a Kysely): every repository function takes one. */
export type DB = Kysely<Database>

/** Joins the caller's transaction when given one (so it commits with the caller's work), else opens its own. */
export function inTransaction<T>(db: DB, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Database>)
  return db.transaction().execute(work)
}

/**
 * Runs the caller's transactions that name the same key one at a time, until each one ends: a lock on something that
 * is not a single row (a learner's course, a cart's plan line that is deleted and inserted again).
 */
export async function lockKeyForTransaction(trx: DB, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx)
}

/**
 * The key's shared form, to the transaction's end: many transactions hold it at once, and one taking it with
 * lockKeyForTransaction waits for them all (and they for it).
 */
export async function lockKeySharedForTransaction(trx: DB, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock_shared(hashtextextended(${key}, 0))`.execute(trx)
}

export interface DatabaseHandle {
  db: DB
  kind: 'pglite' | 'postgres'
  /** The embedded instance, when kind is 'pglite' (tests dump it as a template). */
  pglite?: PGlite
  close(): Promise<void>
}

export interface PgliteTuning {
  /** `shared_buffers`; PostgreSQL's default is 128MB. */
  sharedBuffers?: string
  /** The WAL segment size given to initdb (a new data directory only); PostgreSQL's default is 16 MB. */
  walSegmentMb?: number
}

export interface DatabaseOptions {
  databaseUrl?: string
  /** PGlite data directory; omitted means in memory. */
  dataDir?: string
  /** PGlite data to start from (a dump made by dumpDataDir), used by tests. */
  loadDataDir?: Blob | File
  /** PGlite tuning for tests, which open a copy of one template per file (tests/support/test-pglite.ts). */
  pgliteTuning?: PgliteTuning
  poolSize?: number
  /** PostgreSQL: how long a query may wait for its answer before it fails and its connection is dropped. */
  queryTimeoutMs?: number
  /** PostgreSQL: how long a transaction may sit between two statements before the server ends its session. */
  idleInTransactionTimeoutMs?: number
}

/**
 * How long a PostgreSQL query may wait for its answer. Not a limit on slow queries (the slowest, a day's analytics
 * rollup, takes about a second): a bound on a database that stopped answering without closing the connection (a
 * network partition, a frozen host), which otherwise held the request, and its pooled connection, for good.
 */
export const DB_QUERY_TIMEOUT_MS = 60_000

/**
 * How long one of our sessions may stay idle inside a transaction before PostgreSQL ends it
 * (`idle_in_transaction_session_timeout`). An open transaction holds back the API's sync lists (decision 0094: rows
 * show only below the oldest open transaction) and keeps its row locks; a request or job stuck between two statements
 * must not do that for good. Twice the query timeout: no transaction of ours waits that long between statements (the
 * slowest outside call made inside one, Stripe, gives up after 10 s).
 */
export const DB_IDLE_IN_TRANSACTION_TIMEOUT_MS = 120_000

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, {
      max: options.poolSize ?? 10,
      queryTimeoutMs: options.queryTimeoutMs ?? DB_QUERY_TIMEOUT_MS,
      idleInTransactionTimeoutMs: options.idleInTransactionTimeoutMs ?? DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    })
  }
  return openPglite(options)
}

function openPostgres(
  connectionString: string,
  limits: { max: number; queryTimeoutMs: number; idleInTransactionTimeoutMs: number },
): DatabaseHandle {
  const { max, queryTimeoutMs, idleInTransactionTimeoutMs } = limits
  const pool = new pg.Pool({
    connectionString,
    max,
    // Set for each session at its start, so it holds on any server whatever its configuration says.
    options: `-c idle_in_transaction_session_timeout=${Math.round(idleInTransactionTimeoutMs)}`,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    // An answer that never comes fails the query and drops its connection (PreparingClient); keep-alive lets the
    // system notice a dead peer on idle connections too.
    query_timeout: queryTimeoutMs,
    keepAlive: true,
    Client: PreparingClient,
  })
  // A client losing its connection emits 'error': on the pool while idle, on the client itself while checked out
  // (in a query or between a transaction's statements). Without a listener Node would exit on it. The query in
  // flight fails with the same error (the request answers 503) and the pool discards the broken client.
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  pools.set(db, pool)
  return { db, kind: 'postgres', close: () => db.destroy() }
}

const pools = new WeakMap<DB, pg.Pool>()

/**
 * The node-postgres pool under a database opened here (never a transaction's, PGlite's or one built elsewhere): the
 * hottest fixed statements go to it directly, without Kysely's per-query connection path (compiled-query.ts).
 */
export function poolOf(db: DB): pg.Pool | undefined {
  return pools.get(db)
}

function pgliteTuningOptions(tuning: PgliteTuning = {}) {
  return {
    ...(tuning.sharedBuffers ? { postgresqlconf: `shared_buffers = ${tuning.sharedBuffers}` } : {}),
    ...(tuning.walSegmentMb ? { initDbStartParams: [`--wal-segsize=${tuning.walSegmentMb}`] } : {}),
  }
}

export async function openPglite(options: DatabaseOptions): Promise<DatabaseHandle> {
  let dataDir: string | undefined
  let releaseDataDir = () => {}
  if (options.dataDir) {
    dataDir = path.resolve(options.dataDir, 'pglite')
    mkdirSync(dataDir, { recursive: true })
    releaseDataDir = lockDataDir(dataDir)
  }
  // Loaded only here: a server on PostgreSQL does not carry the embedded database's code (decision 0030).
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ])
  // The options object form is required: `new PGlite(undefined, opts)` silently drops the extensions.
  const pglite = await PGlite.create({
    dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm },
    ...pgliteTuningOptions(options.pgliteTuning),
  }).catch((error: unknown) => {
    releaseDataDir()
    throw error
  })
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) })
  return {
    db,
    kind: 'pglite',
    pglite,
    async close() {
      await db.destroy()
      if (!pglite.closed) await pglite.close()
      releaseDataDir()
    },
  }
}
