import pg from 'pg'

export const TEST_DB_PREFIX = 'sf_test_'

/** Runs one statement on its own connection (CREATE/DROP DATABASE cannot run inside a pooled transaction). */
export async function adminQuery(adminUrl: string, text: string) {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

/** The same server and credentials, another database name. */
export function databaseUrlFor(baseUrl: string, database: string): string {
  const url = new URL(baseUrl)
  url.pathname = `/${database}`
  return url.toString()
}

/** True while the process that owns a template (named sf_test_tpl_<pid>_<project>) is still running. */
function templateOwnerAlive(datname: string): boolean {
  const pid = Number(datname.match(/^sf_test_tpl_(\d+)(?:_\w+)?$/)?.[1])
  if (!pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' // alive, but another user's
  }
}

/**
 * Drops test databases left by crashed runs; ones still in use (another run) refuse and are kept. The template
 * of a run in progress is idle between files, so it is kept while its owner process lives.
 */
export async function dropOrphanTestDatabases(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    `select datname from pg_database where datname like $1 and datname not in (select datname from pg_stat_activity where datname is not null)`,
    [`${TEST_DB_PREFIX}%`],
  )
  for (const { datname } of rows) {
    if (templateOwnerAlive(datname)) continue
    await admin.query(`alter database ${datname} is_template false`).catch(() => undefined)
    await admin.query(`drop database if exists ${datname}`).catch(() => undefined)
  }
}
