// A web node's memory once started (decisions 0030, 0165): the built server as `npm run serve` runs it (WORKER=off,
// its Node flags) on PostgreSQL, 300 catalogue requests, then its heap used and resident memory after two full
// collections, per run. Steadier than bench:limit's peak under load, so it shows what a change to start-up costs.
// Usage (after a build): npm run bench:heap -- --db postgres://…/sf_bench_1m [--runs N]
import { spawn } from 'node:child_process'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { freePort } from '../tests/support/free-port.ts'
import { measuredServerEnv, SERVE_ARGS } from './bench/measured-server.ts'

const { values } = parseArgs({ options: { db: { type: 'string' }, runs: { type: 'string', default: '2' } } })
const databaseUrl = values.db ?? process.env.DATABASE_URL
if (!databaseUrl) throw new Error('--db postgres://… (or DATABASE_URL) is required')
const root = path.resolve(import.meta.dirname, '..')

for (let run = 1; run <= Number(values.runs); run++) {
  const port = await freePort()
  const line = await new Promise<string>((resolve, reject) => {
    const server = spawn(
      process.execPath,
      ['--expose-gc', '--import', './scripts/bench/heap-after-start.mjs', ...SERVE_ARGS],
      {
        cwd: root,
        env: measuredServerEnv(databaseUrl, port),
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    )
    let found = ''
    server.stderr.on('data', (chunk: Buffer) => {
      found ||= /heap used .*/.exec(chunk.toString())?.[0] ?? ''
    })
    server.on('exit', (code) =>
      found ? resolve(found) : reject(new Error(`the server exited (${code}) with no figure`)),
    )
  })
  console.log(`run ${run}: ${line}`)
}
