// createServer wires Fastify, tRPC and the client. main.ts calls it for production; tests call it on port 0.

import { randomUUID } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import fastifyCompress from '@fastify/compress'
import fastifyCookie from '@fastify/cookie'
import fastifyMultipart from '@fastify/multipart'
import fastifyRateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import { createTRPCClient, unstable_localLink } from '@trpc/client'
import type { CreateFastifyContextOptions, FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { DestinationStream } from 'pino'
import { STORAGE_CACHE_CONTROL_SECONDS } from '../src-shared/constants.ts'
import { chatHoursSetting } from '../src-shared/live-chat.ts'
import { TRPC_MAX_BATCH_SIZE } from '../src-shared/trpc-limits.ts'
import { isSameOriginRequest } from './auth/csrf.ts'
import { carriesSession, makeResolveSession } from './auth/resolve.ts'
import type { ResolveSession } from './auth/types.ts'
import { createTxtLookup, parseDnsServers } from './creators/dns-verify.ts'
import { statusForPath } from './flows/page-status.ts'
import { registerAnalyticsCsvRoutes } from './http/analytics-csv.ts'
import { API_V1_PREFIX, registerApiV1Routes } from './http/api-v1.ts'
import { registerProfileRoutes } from './http/avatar.ts'
import { registerBrandLogoRoutes } from './http/brand-logo.ts'
import { registerClient } from './http/client.ts'
import { registerAdminImageRoutes } from './http/course-image.ts'
import { registerCreatorApplicationRoutes } from './http/creator-applications.ts'
import { registerDataExportRoutes } from './http/data-exports.ts'
import { registerEarningsDocumentRoutes } from './http/earnings-documents.ts'
import { registerHealthRoutes } from './http/health.ts'
import { registerInstructorMessageRoutes } from './http/instructor-message-files.ts'
import { registerLearningRoutes } from './http/lesson-media.ts'
import { registerLessonUploadRoutes } from './http/lesson-uploads.ts'
import { registerLiveJoinRoutes } from './http/live-join.ts'
import { registerMailUnsubscribeRoutes } from './http/mail-unsubscribe.ts'
import { registerNativeForms } from './http/native-forms.ts'
import { registerOAuthRoutes } from './http/oauth.ts'
import { registerDocumentRoutes } from './http/order-documents.ts'
import { registerPostImageRoutes } from './http/post-images.ts'
import { registerRequestChecks } from './http/request-checks.ts'
import { OneLineRequestLog } from './http/request-log.ts'
import { registerSchoolHosts, schoolHostKind } from './http/school-hosts.ts'
import { registerSchoolSsoRoutes } from './http/school-sso.ts'
import { registerSeoRoutes } from './http/seo.ts'
import { registerServiceOrderRoutes } from './http/service-order-files.ts'
import { HANDOFF_COMPLETE_PATH, registerSignInHandoffRoutes } from './http/sign-in-handoff.ts'
import { noteRenderOutage } from './http/ssr.ts'
import { registerStripeWebhookRoutes } from './http/stripe-webhook.ts'
import { registerTestClockRoutes } from './http/test-clock.ts'
import { registerTusUploadRoutes } from './http/tus-uploads.ts'
import type { AppConfig, HttpDeps } from './kernel/config.ts'
import type { DB } from './kernel/db.ts'
import type { Env } from './kernel/env.ts'
import { registerErrorHandler } from './kernel/error-mapping.ts'
import { batchedStdout, redactingLogOptions } from './kernel/log.ts'
import { type S3Env, s3OptionsFromEnv } from './kernel/s3-config.ts'
import { ONE_CLICK_UNSUBSCRIBE_PATH } from './mail/unsubscribe.ts'
import type { PaymentsConfig } from './payments/config.ts'
import { type AppRouter, appRouter, createCaller } from './routers/_app.ts'
import { responseHeaders } from './security/headers.ts'
import { canonicalHostCheck, servedOverHttps } from './security/https.ts'
import { createRateLimiter, type RateLimiter } from './security/rate-limit.ts'
import { rateLimitStore } from './security/rate-limit-store.ts'
import { createS3Storage } from './storage/s3.ts'
import { createLocalStorage, type FileStorage, PRIVATE_PREFIX } from './storage/storage.ts'
import { createLocalTusFiles, createS3TusFiles, type TusFiles } from './storage/tus-store.ts'
import { catalogueAnswerSlot, keptCatalogueAnswer } from './trpc/answer-cache.ts'
import { type Context, makeCreateContext } from './trpc/context.ts'
import { registerTrpc } from './trpc/fastify-handler.ts'
import { trpcErrorHooks } from './trpc/http.ts'
import { KEPT_ANSWER_SYNC_THRESHOLD, keptAnswerZlib } from './trpc/kept-compression.ts'

export interface ServerDeps {
  env: Pick<Env, 'NODE_ENV' | 'PORT' | 'HOST' | 'CLIENT_DIR' | 'LOG_LEVEL'> &
    Partial<
      Pick<
        Env,
        | 'PUBLIC_URL'
        | 'DATA_DIR'
        | 'REDIS_URL'
        | 'TRUST_PROXY'
        | 'SMTP_URL'
        | 'LESSON_VIDEO_MAX_BYTES'
        | 'CREATOR_STORAGE_LIMIT_BYTES'
        | 'STAFF_2FA'
        | 'WEBHOOKS_ALLOW_PRIVATE'
        | 'TWO_FACTOR_KEY'
        | 'SSO_HTTP_ISSUERS'
        | 'LIVE_CHAT_HOURS'
        | 'TEST_CLOCK'
        | 'DNS_SERVERS'
        | OAuthEnv
      >
    > &
    S3Env
  db: DB
  /** Log level and destination (standard output at LOG_LEVEL by default), or false for none. */
  logger?: false | { level: string; stream?: DestinationStream }
  resolveSession?: ResolveSession
  storage?: FileStorage
  payments?: PaymentsConfig
  /** Rate-limit counters; by default in memory, or Redis when REDIS_URL is set. */
  limiter?: RateLimiter
}

type OAuthEnv = 'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET' | 'FACEBOOK_CLIENT_ID' | 'FACEBOOK_CLIENT_SECRET'

/** Uploads go to the S3 bucket when one is configured, else to local disk served at /uploads. */
export function createStorage(env: ServerDeps['env'], uploadsDir: string): FileStorage {
  const s3 = s3OptionsFromEnv(env)
  // Uploads on their way to the bucket are staged beside the local uploads folder (DATA_DIR), not in a tmpfs.
  return s3
    ? createS3Storage({ ...s3, stagingDir: path.join(uploadsDir, '..', 'staging') })
    : createLocalStorage(uploadsDir)
}

/** Where resumable (tus) uploads collect their bytes: the same bucket as the uploads, or DATA_DIR/tus. */
export function createTusFiles(env: ServerDeps['env'], dataDir: string): TusFiles {
  const s3 = s3OptionsFromEnv(env)
  return s3 ? createS3TusFiles(s3) : createLocalTusFiles(path.join(dataDir, 'tus'))
}

function pair(id: string | undefined, secret: string | undefined) {
  return id && secret ? { clientId: id, clientSecret: secret } : undefined
}

export interface Server {
  app: FastifyInstance
  config: AppConfig
  storage: FileStorage
  /** Resumable uploads in progress (the daily sweep removes abandoned ones). */
  tusFiles: TusFiles
  /** Starts listening; resolves to the base URL (useful with port 0). */
  start(): Promise<string>
  stop(): Promise<void>
}

/** A /uploads/ address of a private file, however encoded ('%2F', '/./'): those are never served statically. */
function isPrivateUpload(url: string): boolean {
  let pathname: string
  try {
    pathname = decodeURIComponent(url.split('?')[0] ?? '')
  } catch {
    return true
  }
  return `${path.posix.normalize(pathname)}/`.startsWith(`/uploads/${PRIVATE_PREFIX}`)
}

/**
 * The server renderer's tRPC client for one page: the procedures run in-process with the same context /trpc would
 * build for this request (its cookies and session, resolved once for the page).
 */
function inProcessTrpcClient(
  request: FastifyRequest,
  reply: FastifyReply,
  createContext: (options: CreateFastifyContextOptions) => Promise<Context>,
) {
  let context: Promise<Context> | undefined
  return createTRPCClient<AppRouter>({
    links: [
      unstable_localLink({
        router: appRouter,
        createContext: () => {
          context ??= createContext({ req: request, res: reply, info: undefined as never })
          return context
        },
        onError: ({ error, path }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR') request.log.error({ err: error, path }, 'tRPC procedure failed')
          if (error.code === 'SERVICE_UNAVAILABLE') noteRenderOutage(request)
        },
      }),
    ],
  })
}

/** Paths that verify their callers another way (Stripe signs its webhooks). */
// The Stripe webhook proves itself by its signature; the one-click unsubscribe (RFC 8058) by its token, and mail
// clients post it from their own servers with no Origin. The REST API authenticates by its key header, never a cookie.
/** Answers smaller than this are sent uncompressed. */
const COMPRESS_THRESHOLD = 1024

// The hand-off's cross-site step only posts its code on to the domain itself, where the same-origin check applies.
const CSRF_EXEMPT = ['/api/stripe/webhook', ONE_CLICK_UNSUBSCRIBE_PATH, `${API_V1_PREFIX}/`, HANDOFF_COMPLETE_PATH]

export async function createServer(deps: ServerDeps): Promise<Server> {
  const { env, db } = deps
  const oauth = {
    google: pair(env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET),
    facebook: pair(env.FACEBOOK_CLIENT_ID, env.FACEBOOK_CLIENT_SECRET),
  }
  const config: AppConfig = {
    cookieSecure: servedOverHttps(env),
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT || 3000}`,
    payments: deps.payments,
    hideErrorDetails: env.NODE_ENV === 'production',
    lessonVideoMaxBytes: env.LESSON_VIDEO_MAX_BYTES,
    creatorLimits: env.CREATOR_STORAGE_LIMIT_BYTES
      ? {
          basic: { storageBytes: env.CREATOR_STORAGE_LIMIT_BYTES },
          pro: { storageBytes: env.CREATOR_STORAGE_LIMIT_BYTES },
        }
      : undefined,
    mailDelivery: env.SMTP_URL ? 'smtp' : 'log',
    oauthProviders: (['google', 'facebook'] as const).filter((name) => oauth[name]),
    staffTwoFactor: env.STAFF_2FA ?? 'required',
    webhooksAllowPrivate: env.NODE_ENV !== 'production' || env.WEBHOOKS_ALLOW_PRIVATE === 'on',
    twoFactorKey: env.TWO_FACTOR_KEY ? new Uint8Array(Buffer.from(env.TWO_FACTOR_KEY, 'base64')) : undefined,
    txtLookup: createTxtLookup(parseDnsServers(env.DNS_SERVERS)),
    ssoHttpIssuers: env.SSO_HTTP_ISSUERS === 'loopback' ? 'loopback' : undefined,
    liveChatHours: chatHoursSetting(env.LIVE_CHAT_HOURS),
  }
  const uploadsDir = path.resolve(env.DATA_DIR ?? './data', 'uploads')
  mkdirSync(uploadsDir, { recursive: true })
  const storage = deps.storage ?? createStorage(env, uploadsDir)
  const tusFiles = createTusFiles(env, path.resolve(env.DATA_DIR ?? './data'))
  const limiter = deps.limiter ?? createRateLimiter(env.REDIS_URL)
  const allowedOrigins = env.PUBLIC_URL ? [new URL(env.PUBLIC_URL).origin] : []

  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : { ...(deps.logger ?? { level: env.LOG_LEVEL, stream: batchedStdout() }), ...redactingLogOptions },
    routerOptions: { maxParamLength: 5000 },
    trustProxy: env.TRUST_PROXY ?? false,
    requestTimeout: 30_000,
    genReqId: () => randomUUID(),
    logController: new OneLineRequestLog(),
  })

  registerErrorHandler(app, { requestIdHook: false })
  // One hook for what every request passes: X-Request-Id, the canonical host, a school's home, the security headers,
  // the cross-site check (http/request-checks.ts; issue 37).
  registerRequestChecks(app, {
    canonicalHost: canonicalHostCheck(env, (host) => schoolHostKind(db, host)),
    schoolHome: registerSchoolHosts(app, db, env.PUBLIC_URL),
    setHeaders: responseHeaders({
      secure: config.cookieSecure,
      // Images come from wherever the storage serves uploads: the bucket's or the CDN's origin ('self' when local).
      extraImageOrigins: storage.publicOrigin ? [storage.publicOrigin] : [],
    }),
    allowed: (request) =>
      isSameOriginRequest(request, allowedOrigins) || CSRF_EXEMPT.some((prefix) => request.url.startsWith(prefix)),
  })
  await app.register(fastifyCompress, { threshold: COMPRESS_THRESHOLD })
  // Only routes that opt in (config.rateLimit) are limited; counts live in the same limiter as the procedures'.
  // A limiter that cannot be reached lets the request through (decision 0003): an unsubscribe link or an upload
  // answered 500 while Redis was down.
  await app.register(fastifyRateLimit, {
    global: false,
    skipOnError: true,
    store: rateLimitStore(limiter, (error) =>
      app.log.warn({ err: error }, 'rate limiter unavailable; request allowed'),
    ),
  })
  await app.register(fastifyCookie)
  const resolveSession =
    deps.resolveSession ?? makeResolveSession(db, { secure: config.cookieSecure, publicUrl: config.publicUrl })
  const httpDeps: HttpDeps = { db, storage, config, resolveSession }

  registerHealthRoutes(app, db)

  // One context builder for /trpc and the server renderer's in-process calls.
  const createContext = makeCreateContext(db, config, resolveSession, limiter, storage)
  await registerTrpc(
    app,
    '/trpc',
    {
      router: appRouter,
      createContext,
      maxBatchSize: TRPC_MAX_BATCH_SIZE,
      // The client sends a query whose input carries a token or an address as a POST, out of the address (lib/trpc.ts carriesPrivateInput).
      allowMethodOverride: true,
      ...trpcErrorHooks,
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
    catalogueAnswerSlot,
    // tRPC's GETs: the kept answers (trpc/answer-cache.ts) are compressed once per encoding, not on every hit, and
    // always on the synchronous path (which that needs), not only below the plugin's per-host threshold (issue 37).
    { threshold: COMPRESS_THRESHOLD, syncThreshold: KEPT_ANSWER_SYNC_THRESHOLD, zlib: keptAnswerZlib() },
    // A caller without a session gets a kept answer before any context is built (issue 37).
    (request, path, rawInput) => (carriesSession(request) ? undefined : keptCatalogueAnswer(db, path, rawInput)),
  )

  // User uploads from local storage: public images checked by content. Private files (under PRIVATE_PREFIX) are
  // never served here, only by routes that check the session (http/service-order-files.ts, http/lesson-media.ts);
  // the hook refuses them before fastify-static however the path is encoded.
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (isPrivateUpload(request.url)) return reply.code(404).send({ error: 'Not Found', message: 'File not found' })
    })
    await scope.register(fastifyStatic, {
      root: uploadsDir,
      prefix: '/uploads/',
      allowedPath: (pathName) => !pathName.replace(/^\/+/, '').startsWith(PRIVATE_PREFIX),
      decorateReply: false,
      wildcard: true,
      index: false,
      maxAge: STORAGE_CACHE_CONTROL_SECONDS * 1000,
      setHeaders(reply) {
        reply.header('X-Content-Type-Options', 'nosniff')
      },
    })
  })

  // Plain HTTP routes of each domain register here, in one scope with the multipart parser: its two asynchronous
  // hooks (a listener on every response's close, a clean-up after every response) run for these routes only, not
  // for /trpc, the pages and the static files (issue 37).
  await app.register(async (routes) => {
    // Uploads are images of a few MB at most; routes set their own lower limits.
    await routes.register(fastifyMultipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1, fields: 10 } })
    await registerStripeWebhookRoutes(routes, httpDeps)
    registerSeoRoutes(routes, httpDeps)
    registerOAuthRoutes(routes, httpDeps, oauth)
    registerSchoolSsoRoutes(routes, httpDeps)
    await registerSignInHandoffRoutes(routes, httpDeps)
    registerProfileRoutes(routes, httpDeps)
    registerBrandLogoRoutes(routes, httpDeps)
    registerDocumentRoutes(routes, httpDeps)
    registerAdminImageRoutes(routes, httpDeps)
    registerLearningRoutes(routes, httpDeps)
    registerLessonUploadRoutes(routes, httpDeps)
    registerPostImageRoutes(routes, httpDeps)
    registerServiceOrderRoutes(routes, httpDeps)
    registerInstructorMessageRoutes(routes, httpDeps)
    registerTusUploadRoutes(routes, httpDeps, { tus: tusFiles, limiter })
    registerCreatorApplicationRoutes(routes, httpDeps)
    registerEarningsDocumentRoutes(routes, httpDeps)
    registerDataExportRoutes(routes, httpDeps)
    registerLiveJoinRoutes(routes, httpDeps)
    registerAnalyticsCsvRoutes(routes, httpDeps)
    registerApiV1Routes(routes, httpDeps, { limiter })
    await registerMailUnsubscribeRoutes(routes, httpDeps)
    if (env.TEST_CLOCK === 'on') registerTestClockRoutes(routes)
  })

  const renderPage = await registerClient(
    app,
    env.CLIENT_DIR,
    (pathname) => statusForPath(db, pathname),
    (request, reply) => inProcessTrpcClient(request, reply, createContext),
  )
  // Sign-up, log-in, the password pages and contact work before the page's JavaScript arrives (issue 27).
  await registerNativeForms(app, {
    callerFor: async (request, reply) =>
      createCaller(await createContext({ req: request, res: reply, info: undefined as never })),
    renderPage,
  })

  return {
    app,
    config,
    storage,
    tusFiles,
    async start() {
      return app.listen({ port: env.PORT, host: env.HOST })
    },
    async stop() {
      await app.close()
      if (!deps.limiter) await limiter.close()
    },
  }
}
