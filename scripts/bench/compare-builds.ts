// Two (or more) builds of the app against each other: each directory holds a built checkout (`dist/`, `package.json`,
// `node_modules`, e.g. a git worktree of the commit before and `npm run build` in it); each is started as
// `npm run serve` starts it and loaded in turn, round after round, and the CPU time each spent per answered request is
// printed (the steadier figure on a shared machine), with each round's figure. --header adds a request header (e.g.
// 'accept-encoding: gzip, deflate, br, zstd', what browsers send; bench:limit's client sends none).
//   node --import tsx scripts/bench/compare-builds.ts --db postgres://…/sf_bench_1m --url '/trpc/…' [--url …]
//     [--seconds 3 --rounds 8 --connections 10 --header 'name: value'] /path/to/before /path/to/after
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { freePort } from '../../tests/support/free-port.ts'
import { measuredServerEnv, SERVE_ARGS } from './measured-server.ts'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    db: { type: 'string' },
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '6' },
    url: { type: 'string', multiple: true },
    header: { type: 'string', multiple: true },
    connections: { type: 'string', default: '10' },
  },
})
const headers: Record<string, string> = {}
for (const h of values.header ?? []) {
  const [k, v] = h.split(/:\s*/, 2)
  headers[k!] = v!
}
const urls = values.url ?? []
async function load(url: string, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number(values.connections) })
  let n = 0
  let bad = 0
  const deadline = performance.now() + seconds * 1000
  const one = () =>
    new Promise<void>((resolve) => {
      http
        .get(url, { agent, headers }, (r) => {
          r.resume()
          r.on('end', () => {
            if (r.statusCode === 200) n++
            else bad++
            resolve()
          })
        })
        .on('error', () => {
          bad++
          resolve()
        })
    })
  await Promise.all(
    Array.from({ length: Number(values.connections) }, async () => {
      while (performance.now() < deadline) await one()
    }),
  )
  agent.destroy()
  return { n, bad }
}
function cpuMs(child: ChildProcess) {
  const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100
}
const servers: { dir: string; port: number; child: ChildProcess }[] = []
for (const dir of positionals) {
  const port = await freePort()
  const child = spawn(process.execPath, SERVE_ARGS, {
    cwd: dir,
    env: measuredServerEnv(values.db as string, port),
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  servers.push({ dir, port, child })
}
try {
  for (const s of servers) {
    for (let i = 0; i < 300; i++) {
      try {
        const r = await fetch(`http://127.0.0.1:${s.port}/livez`)
        if (r.status < 500) break
      } catch {}
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  for (const url of urls) {
    for (const s of servers) await load(`http://127.0.0.1:${s.port}${url}`, 3)
    const tot = servers.map(() => ({ cpu: 0, n: 0, bad: 0 }))
    const per: number[][] = servers.map(() => [])
    for (let round = 0; round < Number(values.rounds); round++) {
      const order = servers.map((_, i) => i)
      if (round % 2) order.reverse()
      for (const i of order) {
        const s = servers[i]!
        const c0 = cpuMs(s.child)
        const r = await load(`http://127.0.0.1:${s.port}${url}`, Number(values.seconds))
        const c = cpuMs(s.child) - c0
        tot[i]!.cpu += c
        tot[i]!.n += r.n
        tot[i]!.bad += r.bad
        per[i]!.push((c * 1000) / r.n)
      }
    }
    console.log(
      `${url}  load ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}`,
    )
    servers.forEach((s, i) => {
      const t = tot[i]!
      const sorted = [...per[i]!].sort((a, b) => a - b)
      console.log(
        `  ${path.basename(s.dir).padEnd(14)} ${((t.cpu * 1000) / t.n).toFixed(1).padStart(7)} µs/req  median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)}  rps ${(t.n / (Number(values.rounds) * Number(values.seconds))).toFixed(0)}  rounds [${per[i]!.map((x) => x.toFixed(0)).join(' ')}] ${t.bad ? `bad ${t.bad}` : ''}`,
      )
    })
  }
} finally {
  for (const s of servers) s.child.kill('SIGTERM')
}
