// `npm run admin:create -- --email owner@example.com --password '…'`: creates (or promotes) the owner account
// on the database the server would open. The password is never printed.
import { parseArgs } from 'node:util'
import { migrateToLatest } from '../db/migrate.ts'
import { openDatabase } from '../src-server/kernel/db.ts'
import { readEnv } from '../src-server/kernel/env.ts'
import { ensureOwner } from '../src-server/team/owner.ts'
import { PASSWORD_MIN_LENGTH } from '../src-shared/constants.ts'

const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } })
if (!values.email || !values.password || !/^\S+@\S+\.\S+$/.test(values.email)) {
  console.error('usage: npm run admin:create -- --email <email> --password <password>')
  process.exit(2)
}
if (values.password.length < PASSWORD_MIN_LENGTH) {
  console.error(`The password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  process.exit(2)
}

const env = readEnv()
const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR }).catch((error: unknown) => {
  // e.g. the embedded database is the running server's (kernel/data-dir-lock.ts): say so, without a stack.
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
try {
  await migrateToLatest(handle.db)
  const result = await ensureOwner(handle.db, values.email, values.password)
  const messages = {
    created: `Owner account created for ${values.email}.`,
    promoted: `${values.email} already had an account; it is now the owner (its password was not changed).`,
    claimed: `${values.email} had an unverified account; it is now the owner with this password (its sessions were ended).`,
    exists: `${values.email} is already the owner; nothing changed.`,
  }
  console.log(messages[result])
} finally {
  await handle.close()
}
