// The REST API, version 1 (issue 36, decision 0060): plain routes under /api/v1 authenticated by a school's API key
// (`Authorization: Bearer <key>`, never a cookie: the CSRF hook exempts the prefix), each parsing its input with the
// zod schema the OpenAPI document is generated from and calling flows/school-api.ts. Every answer of an authenticated
// request carries the key's rate limit (RateLimit / RateLimit-Policy, draft-ietf-httpapi-ratelimit-headers); every
// refusal is { error: { code, message } }. Keys never reach a log: the request log prints no headers.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import {
  type ApiErrorCode,
  courseIdParam,
  enrolmentIdParam,
  enrolmentListQuery,
  grantEnrolmentBody,
  invitationIdParam,
  pageQuery,
} from '../../src-shared/schemas/api-v1.ts'
import {
  apiCourses,
  apiEarnings,
  apiEnrolmentInvitations,
  apiEnrolments,
  apiGrantEnrolment,
  apiLearners,
  apiLessons,
  apiOrders,
  apiRevokeEnrolment,
  apiWithdrawEnrolmentInvitation,
} from '../flows/school-api.ts'
import { type ApiCaller, authenticateApiKey } from '../flows/school-api-keys.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { sendIfUnavailable } from '../kernel/error-mapping.ts'
import { HTTP_STATUS_BY_KIND, isDomainError } from '../kernel/errors.ts'
import { hitUnlessDown, type RateLimiter, type RateRule } from '../security/rate-limit.ts'
import { apiReferencePage, openApiDocument } from './api-v1-openapi.ts'

export const API_V1_PREFIX = '/api/v1'

/** Requests per key and window: generous for a sync job, a ceiling for a runaway loop. */
export const API_KEY_RATE_RULE: RateRule = { max: 120, windowMs: 60_000 }

const DEFAULT_CODES: Partial<Record<string, ApiErrorCode>> = {
  invalid: 'invalid_request',
  not_found: 'not_found',
  rate_limited: 'rate_limited',
}

function sendError(reply: FastifyReply, status: number, code: ApiErrorCode, message: string) {
  return reply.code(status).header('cache-control', 'no-store').send({ error: { code, message } })
}

/** A refusal from the flows in the API's shape; anything else is the server's fault (logged, 500 internal). */
function sendFailure(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  if (isDomainError(error)) {
    const cause = error.cause as { code?: ApiErrorCode } | undefined
    const code = cause?.code ?? DEFAULT_CODES[error.kind] ?? 'invalid_request'
    return sendError(reply, HTTP_STATUS_BY_KIND[error.kind], code, error.message)
  }
  const unavailable = sendIfUnavailable(request, reply, error)
  if (unavailable) return unavailable
  request.log.error({ err: error }, 'api request failed')
  return sendError(reply, 500, 'internal', `Something went wrong on our side (request ${request.id})`)
}

/**
 * The API's routes' own error handler: a body Fastify refuses before the handler (broken JSON, too large, a type it
 * does not read) answers in the API's shape too, as invalid_request with Fastify's status.
 */
function apiErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('cache-control', 'no-store')
  const status = error.statusCode ?? 500
  if (!isDomainError(error) && status >= 400 && status < 500) {
    return sendError(reply, status, 'invalid_request', error.message)
  }
  return sendFailure(request, reply, error)
}

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
  throw Object.assign(new Error(`${where}${issue?.message ?? 'Invalid request'}`), { apiInvalid: true })
}

/** A handler's answer with its own status (201 for a new enrolment, 200 for one that was there, 202 an invitation). */
interface Answer {
  status: number
  body: unknown
}
type Handler = (caller: ApiCaller, request: FastifyRequest) => Promise<Answer>
const ok = (body: unknown): Answer => ({ status: 200, body })

export function registerApiV1Routes(app: FastifyInstance, deps: HttpDeps, options: { limiter: RateLimiter }) {
  const { db } = deps
  const rule = API_KEY_RATE_RULE

  /** Authenticates, counts the request against the key's limit, runs the handler and answers in the API's shape. */
  const withKey = (handler: Handler) => async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store')
    try {
      const caller = await authenticateApiKey(db, request.headers.authorization)
      // A limiter that cannot be reached lets the request through, without RateLimit headers it cannot know.
      const hit = await hitUnlessDown(options.limiter, `api-key:${caller.keyId}`, rule.windowMs, (error) =>
        request.log.warn({ err: error }, 'rate limiter unavailable; request allowed'),
      )
      if (hit) {
        const resetSeconds = Math.max(0, Math.ceil(hit.ttlMs / 1000))
        reply.header('ratelimit-policy', `"per-key";q=${rule.max};w=${rule.windowMs / 1000}`)
        reply.header('ratelimit', `"per-key";r=${Math.max(0, rule.max - hit.count)};t=${resetSeconds}`)
        if (hit.count > rule.max) {
          reply.header('retry-after', String(resetSeconds))
          return sendError(
            reply,
            429,
            'rate_limited',
            `Too many requests with this key: try again in ${resetSeconds} s`,
          )
        }
      }
      const answer = await handler(caller, request)
      return reply.code(answer.status).send(answer.body)
    } catch (error) {
      if (error instanceof Error && 'apiInvalid' in error)
        return sendError(reply, 400, 'invalid_request', error.message)
      return sendFailure(request, reply, error)
    }
  }

  const p = API_V1_PREFIX
  const api = { errorHandler: apiErrorHandler }
  app.get(
    `${p}/courses`,
    api,
    withKey(async (c, r) => ok(await apiCourses(db, c, parse(pageQuery, r.query)))),
  )
  app.get(
    `${p}/courses/:id/lessons`,
    api,
    withKey(async (c, r) => ok(await apiLessons(db, c, parse(courseIdParam, r.params).id, parse(pageQuery, r.query)))),
  )
  app.get(
    `${p}/learners`,
    api,
    withKey(async (c, r) => ok(await apiLearners(db, c, parse(pageQuery, r.query)))),
  )
  app.get(
    `${p}/enrolments`,
    api,
    withKey(async (c, r) => {
      const query = parse(enrolmentListQuery, r.query)
      return ok(await apiEnrolments(db, c, { ...query, courseId: query.course_id }))
    }),
  )
  app.post(
    `${p}/enrolments`,
    api,
    withKey(async (c, r) => {
      const body = parse(grantEnrolmentBody, r.body ?? {})
      const result = await apiGrantEnrolment(db, c, body, {
        limiter: options.limiter,
        publicUrl: deps.config.publicUrl,
      })
      if (result.kind === 'invited') return { status: 202, body: result.invitation }
      return { status: result.created ? 201 : 200, body: result.enrolment }
    }),
  )
  app.delete(
    `${p}/enrolments/:id`,
    api,
    withKey(async (c, r) => ok(await apiRevokeEnrolment(db, c, parse(enrolmentIdParam, r.params).id))),
  )
  app.get(
    `${p}/enrolment-invitations`,
    api,
    withKey(async (c, r) => ok(await apiEnrolmentInvitations(db, c, parse(pageQuery, r.query)))),
  )
  app.delete(
    `${p}/enrolment-invitations/:id`,
    api,
    withKey(async (c, r) => ok(await apiWithdrawEnrolmentInvitation(db, c, parse(invitationIdParam, r.params).id))),
  )
  app.get(
    `${p}/orders`,
    api,
    withKey(async (c, r) => ok(await apiOrders(db, c, parse(pageQuery, r.query)))),
  )
  app.get(
    `${p}/earnings`,
    api,
    withKey(async (c, r) => ok(await apiEarnings(db, c, parse(pageQuery, r.query)))),
  )

  app.get(`${p}/openapi.json`, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').send(await openApiDocument()),
  )
  app.get('/developers/api', async (_request, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(apiReferencePage()),
  )
  // An unknown path under the API answers in the API's shape, not with the site's not-found page.
  // The API's own 404 for the methods it speaks (not app.all: no TRACE, CONNECT or WebDAV verbs under /api/v1).
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: `${p}/*`,
    errorHandler: apiErrorHandler,
    handler: async (_request, reply) => sendError(reply, 404, 'not_found', 'No such API operation'),
  })
}
