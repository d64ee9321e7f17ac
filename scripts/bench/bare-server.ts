// The throughput baseline of `npm run bench:limit`: a bare Fastify + pg server. For each URL it is given, it runs
// the very statements the app ran for that URL (recorded by the bench through Kysely's log, same text, same
// parameters, in the same order) and answers the app's JSON body, serialised per request. What the app spends on top
// of this is framework overhead: hooks, context, validation, query building, logging, compression.
// BARE_PREPARED=1 sends each statement by name (prepared once per connection), as the app sends its hot queries
// (decision 0030): the baseline without the saving of parsing and planning that the app makes. BARE_SHARED=1 shares
// a statement without parameters (the catalogue version read) among the requests of one event-loop turn, as the app
// does (kernel/turn-shared-read.ts, decision 0082).
// Run as a child: `node --import tsx scripts/bench/bare-server.ts` with BARE_PLAN=<json file>, DATABASE_URL, PORT.
import { readFileSync } from 'node:fs'
import Fastify from 'fastify'
import pg from 'pg'
import { turnSharedRead } from '../../src-server/kernel/turn-shared-read.ts'

interface Plan {
  /** path + query string → statements and the answer's body */
  [url: string]: { statements: { sql: string; parameters: unknown[] }[]; body: unknown }
}

const plan = JSON.parse(readFileSync(process.env.BARE_PLAN ?? '', 'utf8')) as Plan
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
const app = Fastify({ logger: false })

const prepared = process.env.BARE_PREPARED === '1'
const names = new Map<string, string>()
const nameOf = (sql: string) => names.get(sql) ?? names.set(sql, `bare_${names.size + 1}`).get(sql)
type Statement = Plan[string]['statements'][number]
const run = (statement: Statement) =>
  prepared
    ? pool.query({ name: nameOf(statement.sql), text: statement.sql, values: statement.parameters })
    : pool.query(statement.sql, statement.parameters)
const shared = process.env.BARE_SHARED === '1' ? turnSharedRead(run) : undefined

app.get('/*', async (request, reply) => {
  const entry = plan[request.url]
  if (!entry) return reply.code(404).send()
  for (const statement of entry.statements) {
    await (shared && statement.parameters.length === 0 ? shared(statement) : run(statement))
  }
  reply.header('content-type', 'application/json')
  return JSON.stringify(entry.body)
})

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
process.send?.('ready')
process.on('SIGTERM', async () => {
  await app.close()
  await pool.end()
  process.exit(0)
})
