// `npm run db:migrate` and `npm run db:seed`: the same database the server would open.

import { migrateToLatest } from '../db/migrate.ts'
import { seedDatabase } from '../db/seed/index.ts'
import { openDatabase } from '../src-server/kernel/db.ts'
import { readEnv } from '../src-server/kernel/env.ts'

const command = process.argv[2]
if (command !== 'migrate' && command !== 'seed') {
  console.error('usage: scripts/db.ts migrate|seed')
  process.exit(2)
}

const env = readEnv()
const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR }).catch((error: unknown) => {
  // e.g. the embedded database is the running server's (kernel/data-dir-lock.ts): say so, without a stack.
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
try {
  const applied = await migrateToLatest(handle.db)
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Migrations: up to date')
  if (command === 'seed') {
    await seedDatabase(handle.db)
    console.log('Seed: demo catalogue present')
  }
} finally {
  await handle.close()
}
