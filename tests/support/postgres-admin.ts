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
    // Names carry the pid of the process that made them (sf_test_tpl_<pid>, sf_test_<pid>_<hex>): a database can
    // sit idle while its run goes on (other engineers' runs share this server), so keep it while that process lives.
    const ownerPid = new RegExp(`^${TEST_DB_PREFIX}(?:tpl_)?(\\d+)(?:_|$)`).exec(datname)?.[1]
    if (ownerPid && isProcessAlive(Number(ownerPid))) continue
    await admin.query(`drop database if exists ${datname}`).catch(() => undefined)
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
