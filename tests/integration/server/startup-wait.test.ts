// Start-up while PostgreSQL is unreachable: the real entry point (src-server/main.ts) logs that it waits and keeps
// retrying instead of exiting; once the database answers (a TCP relay to it opens) it migrates and serves.
// PostgreSQL only.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createTestDatabase } from '../../support/db.ts'
import { freePort } from '../../support/free-port.ts'
import { databaseUrlFor } from '../../support/postgres-admin.ts'

const config = inject('testDb')

/** Forwards connections on `port` to PostgreSQL: the database "comes up" when this starts listening. */
function relay(port: number, target: URL) {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => socket.destroy())
      socket.on('close', () => sockets.delete(socket))
    }
    client.pipe(upstream).pipe(client)
  })
  return {
    listen: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () => {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(resolve))
    },
  }
}

describe.runIf(config.kind === 'postgres')('start-up with the database unreachable', () => {
  let database: DatabaseHandle
  let dataDir: string
  let child: ChildProcess | undefined

  beforeAll(async () => {
    database = await createTestDatabase()
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'storefront-startup-'))
  })
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL')
    await database.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('waits, logging each retry, then migrates and serves once the database answers', async () => {
    const adminUrl = new URL(config.kind === 'postgres' ? config.adminUrl : '')
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(database.db)
    const [relayPort, httpPort] = [await freePort(), await freePort()]
    const databaseUrl = new URL(databaseUrlFor(adminUrl.toString(), rows[0]!.name))
    databaseUrl.host = `127.0.0.1:${relayPort}`

    let output = ''
    child = spawn(process.execPath, ['--import', 'tsx', 'src-server/main.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: databaseUrl.toString(),
        PORT: String(httpPort),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        CLIENT_DIR: path.join(dataDir, 'no-client'),
        SEED_ON_EMPTY: 'false',
        LOG_LEVEL: 'info',
        ADMIN_EMAIL: '',
        ADMIN_PASSWORD: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout!.on('data', (chunk) => {
      output += chunk
    })
    child.stderr!.on('data', (chunk) => {
      output += chunk
    })
    const waitFor = async (pattern: RegExp, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs
      while (!pattern.test(output)) {
        if (child!.exitCode !== null) throw new Error(`exited with ${child!.exitCode}:\n${output}`)
        if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${output}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }

    // Two retries seen (0.5 s, then 1 s later) and still running: it waits rather than exiting.
    await waitFor(/"attempt":2,.*database unreachable; waiting before trying again/, 60_000)
    expect(child.exitCode).toBeNull()
    expect(output).toContain('ECONNREFUSED')

    const up = relay(relayPort, adminUrl)
    await up.listen()
    try {
      await waitFor(/storefront ready/, 60_000)
      const ready = await fetch(`http://127.0.0.1:${httpPort}/readyz`)
      expect(ready.status).toBe(200)
    } finally {
      child.kill('SIGTERM')
      await new Promise((resolve) => child!.once('exit', resolve))
      await up.close()
    }
  }, 150_000)
})
