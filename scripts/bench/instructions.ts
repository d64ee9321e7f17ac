// Instructions per request on a server's main thread, counted by valgrind's callgrind: unlike CPU time, a figure the
// machine's other work does not move (decision 0077). Each build given (a directory holding `npm run build`'s dist/,
// as for compare-builds.ts), or `bare` (bench:limit's bare server, replaying a plan file that bench:limit wrote), is
// started under callgrind with counting off, warmed, and counted over a fixed number of requests.
//   node --import tsx scripts/bench/instructions.ts --db postgres://…/sf_bench_1m --url '/trpc/…' [--warmup 4000
//     --requests 1500 --plan /tmp/bench-limit-…/plan.json --bare-shared] /path/to/build [bare]
// Needs valgrind (apt-get install valgrind). Slow: a server starts in about a minute and answers ~100 requests a second.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
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
    url: { type: 'string' },
    warmup: { type: 'string', default: '4000' },
    requests: { type: 'string', default: '1500' },
    plan: { type: 'string' },
    /** the bare server shares its version read per event-loop turn, as the app does (bench:limit's --bare-shared) */
    'bare-shared': { type: 'boolean', default: false },
  },
})
if (!values.db || !values.url || positionals.length === 0) {
  console.error(
    'usage: node --import tsx scripts/bench/instructions.ts --db postgres://… --url /trpc/… <build dir | bare>…',
  )
  process.exit(2)
}

/** `count` GETs of the URL over 10 keep-alive connections. */
async function send(url: string, count: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 })
  let sent = 0
  let ok = 0
  const one = () =>
    new Promise<void>((resolve) => {
      http
        .get(url, { agent }, (response) => {
          response.resume()
          response.on('end', () => {
            if (response.statusCode === 200) ok++
            resolve()
          })
        })
        .on('error', () => resolve())
    })
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (sent < count) {
        sent++
        await one()
      }
    }),
  )
  agent.destroy()
  return ok
}

async function measure(target: string) {
  const port = await freePort()
  const work = mkdtempSync(path.join(os.tmpdir(), 'instructions-'))
  const bare = target === 'bare'
  const cwd = bare ? process.cwd() : target
  // vgdb names its pipes after USER, LOGNAME and HOST: callgrind_control must see the values the server saw.
  const env = {
    ...measuredServerEnv(values.db as string, port),
    USER: process.env.USER ?? 'root',
    LOGNAME: process.env.LOGNAME ?? 'root',
    BARE_PLAN: values.plan ?? '',
    BARE_PREPARED: '1',
    BARE_SHARED: values['bare-shared'] ? '1' : '0',
  }
  const node = bare ? ['--import', 'tsx', 'scripts/bench/bare-server.ts'] : SERVE_ARGS
  const child: ChildProcess = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--separate-threads=yes',
      '--vgdb=yes',
      '--instr-atstart=no',
      '--smc-check=all-non-file',
      `--callgrind-out-file=${path.join(work, 'cg.out')}`,
      process.execPath,
      ...node,
    ],
    { cwd, env, stdio: ['ignore', 'ignore', 'ignore'] },
  )
  const control = (...args: string[]) =>
    execFileSync('callgrind_control', [...args, String(child.pid)], { env, stdio: 'ignore' })
  try {
    for (let attempt = 0; ; attempt++) {
      if (attempt > 600) throw new Error(`${target} did not start`)
      try {
        if ((await fetch(`http://127.0.0.1:${port}/livez`)).status < 500) break
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
    const url = `http://127.0.0.1:${port}${values.url}`
    await send(url, Number(values.warmup))
    control('-z')
    control('-i', 'on')
    const ok = await send(url, Number(values.requests))
    control('-i', 'off')
    control('-d')
    // One file per thread: -01 is the main thread (JavaScript, the event loop); the others are V8's and libuv's helpers.
    const totals = readdirSync(work)
      .filter((name) => /^cg\.out\.\d+-\d+$/.test(name))
      .map((name) => ({
        main: name.endsWith('-01'),
        count: Number(/^totals:\s*(\d+)/m.exec(readFileSync(path.join(work, name), 'utf8'))?.[1] ?? 0),
      }))
    const main = totals.filter((t) => t.main).reduce((sum, t) => sum + t.count, 0)
    const all = totals.reduce((sum, t) => sum + t.count, 0)
    console.log(
      `${target.padEnd(30)} main thread ${Math.round(main / ok).toLocaleString('en-US')} instructions per request, ` +
        `all threads ${Math.round(all / ok).toLocaleString('en-US')} (${ok} answered 200)`,
    )
  } finally {
    child.kill('SIGTERM')
  }
}

for (const target of positionals) await measure(target)
