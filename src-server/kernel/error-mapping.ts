// The one Fastify error handler for plain HTTP routes: domain errors get their status and message; an unreachable
// database, or file storage failing, answers 503 with Retry-After; Fastify's own client errors (bad JSON, a body too large) keep theirs;
// anything else is logged and answered 500 with a generic message. Every answer carries X-Request-Id, the id the
// log lines of that request carry, and error bodies repeat it.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  INTERNAL_ERROR_MESSAGE,
  SERVICE_UNAVAILABLE_MESSAGE,
  STORAGE_UNAVAILABLE_MESSAGE,
} from '../../src-shared/errors.ts'
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from './db-unavailable.ts'
import { HTTP_STATUS_BY_KIND, isDomainError } from './errors.ts'
import { isStorageFailure } from './storage-failure.ts'

/**
 * 503 with Retry-After and the shared sentence when the error is one of our own dependencies failing (file storage,
 * the database): the request was fine and trying again shortly may work. Null for any other error. Storage is asked
 * first: a bucket that refuses the connection carries the same socket codes as a database that does.
 */
export function sendIfUnavailable(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  const storage = isStorageFailure(error)
  if (!storage && !isDatabaseUnavailable(error)) return null
  request.log.warn({ err: error }, storage ? 'storage failed' : 'database unavailable')
  return withoutDownloadHeaders(reply)
    .code(503)
    .header('retry-after', String(RETRY_AFTER_SECONDS))
    .send({
      error: 'Service Unavailable',
      message: storage ? STORAGE_UNAVAILABLE_MESSAGE : SERVICE_UNAVAILABLE_MESSAGE,
      requestId: request.id,
    })
}

/** Headers a download sets before reading its bytes; an error answered after them must not keep them (else the
 * browser saves the error's JSON under the file's name, or takes it for the range asked). */
const DOWNLOAD_HEADERS = ['content-disposition', 'content-range', 'content-length', 'content-type', 'accept-ranges']

function withoutDownloadHeaders(reply: FastifyReply): FastifyReply {
  for (const name of DOWNLOAD_HEADERS) reply.removeHeader(name)
  return reply
}

/**
 * The error handler, and (unless `requestIdHook` is false: the server's first hook sets it with the security headers,
 * http/request-checks.ts) a hook that sets X-Request-Id on every answer.
 */
export function registerErrorHandler(app: FastifyInstance, { requestIdHook = true } = {}) {
  if (requestIdHook) {
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id)
      done()
    })
  }
  app.setErrorHandler((error: FastifyError, request, reply) => {
    withoutDownloadHeaders(reply)
    if (isDomainError(error)) {
      if (error.kind === 'unavailable') reply.header('retry-after', String(RETRY_AFTER_SECONDS))
      return reply.code(HTTP_STATUS_BY_KIND[error.kind]).send({ error: error.kind, message: error.message })
    }
    const unavailable = sendIfUnavailable(request, reply, error)
    if (unavailable) return unavailable
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: error.code ?? 'Bad Request', message: error.message })
    }
    request.log.error({ err: error }, 'request failed')
    return reply
      .code(500)
      .send({ error: 'Internal Server Error', message: INTERNAL_ERROR_MESSAGE, requestId: request.id })
  })
}
