// Test data factories and callers, shared by integration and end-to-end tests. Rows are built by
// db/seed/factories.ts, the same the seed and the benchmarks use.
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { insertUser } from '../../db/seed/factories.ts'
import type { Database } from '../../db/types.ts'
import { hashPassword } from '../../src-server/auth/password.ts'
import { createSession } from '../../src-server/auth/session.ts'
import { toSessionUser } from '../../src-server/auth/session-user.ts'
import type { SessionUser } from '../../src-server/auth/types.ts'
import type { AppConfig } from '../../src-server/kernel/config.ts'
import { createCaller } from '../../src-server/routers/_app.ts'
import { createMemoryLimiter } from '../../src-server/security/rate-limit.ts'
import { createContextInner } from '../../src-server/trpc/context.ts'
import type { Role } from '../../src-shared/roles.ts'

export interface TestUser extends SessionUser {
  password: string
}

const DEFAULT_PASSWORD = 'correct-horse-9!'
let defaultPasswordHash: Promise<string> | undefined

/**
 * The users made with the default password share one argon2 hash per process: a hash takes 20–40 ms of CPU and the
 * suites make thousands of users. Each log-in still verifies it with argon2, as for any account.
 */
function passwordHashOf(password: string): Promise<string> {
  if (password !== DEFAULT_PASSWORD) return hashPassword(password)
  defaultPasswordHash ??= hashPassword(DEFAULT_PASSWORD)
  return defaultPasswordHash
}

export async function createUser(
  db: Kysely<Database>,
  overrides: Partial<{
    email: string
    password: string
    role: Role
    firstName: string
    lastName: string
    emailVerified: boolean
  }> = {},
): Promise<TestUser> {
  const password = overrides.password ?? DEFAULT_PASSWORD
  const email = overrides.email ?? `user-${randomBytes(5).toString('hex')}@example.test`
  const row = await insertUser(db, {
    email,
    email_verified: overrides.emailVerified ?? true,
    password_hash: await passwordHashOf(password),
    first_name: overrides.firstName ?? 'Test',
    last_name: overrides.lastName ?? 'User',
    role: overrides.role ?? 'customer',
  })
  return { ...toSessionUser(row), password }
}

/** A session row and its cookie token for a user (what a successful log-in produces). */
/** A session row for the user; `now`: the server's clock when a test moved it (TEST_CLOCK). */
export async function createSessionToken(db: Kysely<Database>, userId: string, remember = true, now?: Date) {
  return createSession(db, userId, remember, now)
}

/**
 * A browser that is not signed in, calling from `clientIp` with rate-limit counters of its own (a fresh memory limiter),
 * under `config` (its public URL is the one mails link to).
 */
export function visitorCaller(db: Kysely<Database>, config: AppConfig, clientIp = '203.0.113.7') {
  return createCaller(
    createContextInner({ db, user: null, session: null, config, limiter: createMemoryLimiter(), clientIp }),
  )
}

/** A tRPC caller acting as the given user (or a visitor when null), with a real session row. */
export async function callerAs(db: Kysely<Database>, user: SessionUser | null) {
  if (!user) return createCaller(createContextInner({ db, user: null, session: null }))
  const { session } = await createSession(db, user.id)
  return createCaller(createContextInner({ db, user, session }))
}
