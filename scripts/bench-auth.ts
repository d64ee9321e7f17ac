// Measures the cost of the account hot paths on embedded PostgreSQL: argon2id hashing and verification (every
// log-in), session validation (every request with a cookie) and auth.me. Run: `npx tsx scripts/bench-auth.ts`.
import { migrateToLatest } from '../db/migrate.ts'
import { insertUser } from '../db/seed/factories.ts'
import { hashPassword, verifyPassword } from '../src-server/auth/password.ts'
import { createSession, validateSessionToken } from '../src-server/auth/session.ts'
import { openPglite } from '../src-server/kernel/db.ts'
import { createCaller } from '../src-server/routers/_app.ts'
import { createContextInner } from '../src-server/trpc/context.ts'

async function time(label: string, runs: number, fn: () => Promise<unknown>) {
  await fn() // warm-up
  const start = performance.now()
  for (let i = 0; i < runs; i++) await fn()
  const each = (performance.now() - start) / runs
  console.log(`${label.padEnd(34)} ${each.toFixed(2).padStart(8)} ms  (${runs} runs)`)
}

const handle = await openPglite({})
try {
  await migrateToLatest(handle.db)
  const passwordHash = await hashPassword('bench-password-1')
  const user = await insertUser(handle.db, { email: 'bench@example.test', password_hash: passwordHash })
  const { token, session } = await createSession(handle.db, user.id)
  const caller = createCaller(
    createContextInner({
      db: handle.db,
      user: { id: user.id, email: user.email, role: user.role, firstName: '', lastName: '', avatarUrl: null },
      session,
    }),
  )

  await time('argon2id hash', 20, () => hashPassword('bench-password-1'))
  await time('argon2id verify', 20, () => verifyPassword(passwordHash, 'bench-password-1'))
  await time('validateSessionToken (1 query)', 500, () => validateSessionToken(handle.db, token))
  await time('auth.me', 500, () => caller.auth.me())
} finally {
  await handle.close()
}
