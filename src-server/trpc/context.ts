// The tRPC context: the built dependencies every procedure gets (database, settings, payment rails, storage, rate
// limiter), made once, plus the caller. createContextInner is what tests use with any user (defaults for what they
// leave out); makeCreateContext builds the dependencies once per server and adds each request's caller.
import path from 'node:path'
import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify'
import type { ResolveSession, SessionInfo, SessionUser } from '../auth/types.ts'
import { paymentsAdapter } from '../flows/payment-rails.ts'
import { platformSiteUrl, siteUrlForHost } from '../flows/school-domain.ts'
import { type AppConfig, defaultAppConfig } from '../kernel/config.ts'
import type { DB } from '../kernel/db.ts'
import { createMemoryLimiter, type RateLimiter } from '../security/rate-limit.ts'
import { createLocalStorage, type FileStorage } from '../storage/storage.ts'

export interface ContextInner {
  db: DB
  user: SessionUser | null
  session: SessionInfo | null
  /** Settings; the payment settings in it (config.payments) give the payment rails. */
  config?: AppConfig
  /** Counts attempts for abuse limits; a caller without one gets its own in-memory limiter. */
  limiter?: RateLimiter
  /** The client's address (rate-limit key); Fastify's req.ip over HTTP. */
  clientIp?: string
  /** Where uploads live; procedures use it to recognise URLs it produced. Local disk under ./data by default. */
  storage?: FileStorage
}

/** Where a procedure's warnings go: the request's log over HTTP, nowhere in a test's direct call. */
export interface WarnLog {
  warn: (details: object, message: string) => void
}
const silent: WarnLog = { warn: () => {} }

type Deps = Pick<ContextInner, 'db' | 'config' | 'limiter' | 'storage'>

/** The dependencies, built once: settings, payment rails, rate limiter, storage. */
function buildDeps(deps: Deps) {
  const config = deps.config ?? defaultAppConfig
  return {
    db: deps.db,
    config,
    publicUrl: config.publicUrl,
    ...paymentsAdapter(config.payments),
    limiter: deps.limiter ?? createMemoryLimiter(),
    storage: deps.storage ?? createLocalStorage(path.resolve('data', 'uploads')),
  }
}

function withCaller(
  deps: ReturnType<typeof buildDeps>,
  caller: { user: SessionUser | null; session: SessionInfo | null; clientIp?: string; log?: WarnLog },
) {
  return {
    ...deps,
    /**
     * The origin of links and return URLs for this request: the school's verified domain when the request came on
     * it (decision 0063), else PUBLIC_URL. Staff and studio mails keep config.publicUrl.
     */
    publicUrl: deps.publicUrl,
    user: caller.user,
    session: caller.session,
    clientIp: caller.clientIp ?? 'local',
    log: caller.log ?? silent,
  }
}

export function createContextInner(inner: ContextInner) {
  return withCaller(buildDeps(inner), inner)
}

export type Context = ReturnType<typeof createContextInner> & {
  req?: CreateFastifyContextOptions['req']
  res?: CreateFastifyContextOptions['res']
  /** Resolving the session failed (e.g. the database is down); the base procedure throws it. */
  sessionError?: unknown
}

/**
 * Whether a password may be typed on the site this request came to: not under a school's own domain, whose owner
 * controls where the name points (decision 0063); there the sign-in is handed to the platform's host.
 */
export function passwordsTypedHere(ctx: { publicUrl: string; config: { publicUrl: string } }): boolean {
  return ctx.publicUrl === ctx.config.publicUrl
}

export function makeCreateContext(
  db: DB,
  config: AppConfig,
  resolveSession: ResolveSession,
  limiter: RateLimiter = createMemoryLimiter(),
  storage?: FileStorage,
) {
  const deps = buildDeps({ db, config, limiter, storage })
  // Never throws: a context that failed to build would leave the error formatter without the request (and its
  // id), so a failure is carried on the context and thrown by the base procedure instead.
  return async ({ req, res }: CreateFastifyContextOptions): Promise<Context> => {
    try {
      const { user, session } = await resolveSession(req, res)
      // On a school's verified domain, the links this request mails and Stripe's return pages stay on it. Any
      // other host (the main one, an address) needs no lookup and no promise.
      const host = req.host
      const publicUrl = platformSiteUrl(config.publicUrl, host) ?? (await siteUrlForHost(db, config.publicUrl, host))
      // One object per request (no intermediate copy of the dependencies: issue 37).
      return {
        ...deps,
        publicUrl,
        user,
        session,
        clientIp: req.ip ?? 'local',
        log: req.log ?? silent,
        req,
        res,
      } satisfies Context
    } catch (sessionError) {
      const caller = { clientIp: req.ip, log: req.log, user: null, session: null }
      return { ...withCaller(deps, caller), req, res, sessionError }
    }
  }
}
