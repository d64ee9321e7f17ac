// The built server started as the end-to-end tests start it (scripts/e2e-server.ts: a fresh PostgreSQL database of
// its own, migrated and seeded by the server), for the scripts that measure it in a browser: `npm run lighthouse`
// and `npm run bench:hydration`. PostgreSQL is TEST_DATABASE_URL's (postgres://postgres@127.0.0.1:5432 by default).
import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Database } from '../db/types.ts'

export interface BuiltServer {
  /** http://127.0.0.1:<port> */
  base: string
  /** The server's own database (dropped and created again at each start). */
  databaseUrl: string
  process: ChildProcess
  /** A connection to the server's database, for the rows a measurement needs (destroy it when done). */
  openDatabase(): Kysely<Database>
  stop(): void
}

/** Starts `dist/server` on 127.0.0.1:port with a fresh database `<databasePrefix>_<port>`; resolves once /readyz answers. */
export async function startBuiltServer(port: number, databasePrefix: string): Promise<BuiltServer> {
  const base = `http://127.0.0.1:${port}`
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
  url.pathname = `/${databasePrefix}_${port}`
  const databaseUrl = url.toString()
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/e2e-server.ts'], {
    env: {
      ...process.env,
      E2E_PORT: String(port),
      E2E_DATABASE_URL: databaseUrl,
      E2E_LOG_LEVEL: 'error',
      // Where e2e-server.ts writes its log and the secrets it was given (read by the e2e log audit only).
      E2E_LOG_FILE: path.resolve(`.e2e-data/${databasePrefix}-${port}.log`),
      E2E_SECRETS_FILE: path.resolve(`.e2e-data/${databasePrefix}-secrets-${port}.txt`),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const built: BuiltServer = {
    base,
    databaseUrl,
    process: server,
    openDatabase: () =>
      new Kysely<Database>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }),
      }),
    stop: () => {
      server.kill('SIGTERM')
    },
  }
  for (let attempt = 0; attempt < 180; attempt++) {
    const ready = await fetch(`${base}/readyz`).then(
      (response) => response.ok,
      () => false,
    )
    if (ready) return built
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  server.kill()
  throw new Error(`the server did not start on ${base}`)
}
