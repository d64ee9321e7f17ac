// A throw-away PostgreSQL cluster of our own (data in /tmp, its own port), so chaos runs can stop and start it at
// will without touching the machine's shared server. As root, the PostgreSQL tools run as the postgres user.
import { execFile } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { freePort } from '../../tests/support/free-port.ts'

const run = promisify(execFile)

function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : []
  if (!versions[0]) throw new Error('PostgreSQL server binaries not found: set PG_BIN (the folder holding pg_ctl)')
  return path.join(root, versions[0], 'bin')
}

export interface PrivatePostgres {
  port: number
  dataDir: string
  url(database: string): string
  /** `pg_ctl stop -m fast`: every backend is terminated (57P01) and the port closes. */
  stopFast(): Promise<void>
  start(): Promise<void>
  destroy(): Promise<void>
}

export async function createPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir()
  const asRoot = process.getuid?.() === 0
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sf-chaos-pg-'))
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: gid } = await run('id', ['-g', 'postgres'])
    chownSync(dataDir, Number(stdout.trim()), Number(gid.trim()))
  }
  const tool = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, name), ...args]) : run(path.join(bin, name), args)
  const port = await freePort()
  await tool('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync'])
  const options = `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1 -c fsync=off`
  const start = async () => {
    await tool('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(dataDir, 'server.log'), '-w', 'start'])
  }
  await start()
  let running = true
  return {
    port,
    dataDir,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async stopFast() {
      await tool('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop'])
      running = false
    },
    async start() {
      await start()
      running = true
    },
    async destroy() {
      if (running) await tool('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
