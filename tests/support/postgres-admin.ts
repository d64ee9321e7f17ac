import type pg from 'pg'

export const TEST_DB_PREFIX = 'sf_test_'

/** The same server and credentials, another database name. */
export function databaseUrlFor(baseUrl: string, database: string): string {
  const url = new URL(baseUrl)
  url.pathname = `/${database}`
  return url.toString()
}

/** Drops test databases left by crashed runs; ones still in use (another run) refuse and are kept. */
export async function dropOrphanTestDatabases(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    `select datname from pg_database where datname like $1 and datname not in (select datname from pg_stat_activity where datname is not null)`,
    [`${TEST_DB_PREFIX}%`],
  )
  for (const { datname } of rows) {
    await admin.query(`drop database if exists ${datname}`).catch(() => undefined)
  }
}
