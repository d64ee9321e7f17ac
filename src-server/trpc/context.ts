// The tRPC context. createContextInner is what tests use with any user; createContext is the HTTP one.
import path from 'node:path'
import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify'
import type { ResolveSession, SessionInfo, SessionUser } from '../auth/types.ts'
import { type AppConfig, defaultAppConfig } from '../config.ts'
import type { DB } from '../db.ts'
import { createMemoryLimiter, type RateLimiter } from '../security/rate-limit.ts'
import { createLocalStorage, type FileStorage } from '../storage/storage.ts'

export interface ContextInner {
  db: DB
  user: SessionUser | null
  session: SessionInfo | null
  config?: AppConfig
  /** Counts attempts for abuse limits; a caller without one gets its own in-memory limiter. */
  limiter?: RateLimiter
  /** The client's address (rate-limit key); Fastify's req.ip over HTTP. */
  clientIp?: string
  /** Where uploads live; procedures use it to recognise URLs it produced. Local disk under ./data by default. */
  storage?: FileStorage
}

export function createContextInner(inner: ContextInner) {
  return {
    ...inner,
    config: inner.config ?? defaultAppConfig,
    limiter: inner.limiter ?? createMemoryLimiter(),
    clientIp: inner.clientIp ?? 'local',
    storage: inner.storage ?? createLocalStorage(path.resolve('data', 'uploads')),
  }
}

export type Context = ReturnType<typeof createContextInner> & {
  req?: CreateFastifyContextOptions['req']
  res?: CreateFastifyContextOptions['res']
  /** Resolving the session failed (e.g. the database is down); the base procedure throws it. */
  sessionError?: unknown
}

export function makeCreateContext(
  db: DB,
  config: AppConfig,
  resolveSession: ResolveSession,
  limiter: RateLimiter = createMemoryLimiter(),
  storage?: FileStorage,
) {
  // Never throws: a context that failed to build would leave the error formatter without the request (and its
  // id), so a failure is carried on the context and thrown by the base procedure instead.
  return async ({ req, res }: CreateFastifyContextOptions): Promise<Context> => {
    const base = { db, config, limiter, clientIp: req.ip, storage }
    try {
      const { user, session } = await resolveSession(req, res)
      return { ...createContextInner({ ...base, user, session }), req, res }
    } catch (sessionError) {
      return { ...createContextInner({ ...base, user: null, session: null }), req, res, sessionError }
    }
  }
}
