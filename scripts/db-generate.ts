// `npm run db:generate -- --courses 1000000 [--database-url postgres://…]`: migrates and seeds the database (the
// configured one: DATABASE_URL, else PGlite under DATA_DIR), then adds a large generated catalogue for benchmarks
// (db/seed/generate.ts). A second run replaces the generated rows. PostgreSQL is the target for 1M; PGlite is
// fine up to ~100k.
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { migrateToLatest } from '../db/migrate.ts'
import { generateCatalogue } from '../db/seed/generate.ts'
import { seedDatabase } from '../db/seed/index.ts'
import { openDatabase } from '../src-server/kernel/db.ts'
import { readEnv } from '../src-server/kernel/env.ts'

const { values } = parseArgs({
  options: {
    courses: { type: 'string', default: '100000' },
    'database-url': { type: 'string' },
  },
})
const count = Number(values.courses)
if (!Number.isInteger(count) || count < 1) {
  console.error('usage: npm run db:generate -- --courses N [--database-url postgres://…]')
  process.exit(2)
}

const env = readEnv()
const handle = await openDatabase({ databaseUrl: values['database-url'] ?? env.DATABASE_URL, dataDir: env.DATA_DIR })
try {
  await migrateToLatest(handle.db)
  await seedDatabase(handle.db)
  const started = performance.now()
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1)
  await generateCatalogue(handle.db, {
    courses: count,
    onProgress: (done) => console.log(`  ${done.toLocaleString('en-US')} courses (${seconds()} s)`),
  })
  await sql`vacuum analyze courses`.execute(handle.db)
  await sql`vacuum analyze instructors`.execute(handle.db)
  console.log(`${handle.kind}: generated ${count.toLocaleString('en-US')} courses in ${seconds()} s`)
} finally {
  await handle.close()
}
