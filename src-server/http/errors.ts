// The one Fastify error handler for plain HTTP routes: domain errors get their status and message; Fastify's own
// client errors (bad JSON, a body too large) keep theirs; anything else is logged and answered 500.
import type { FastifyError, FastifyInstance } from 'fastify'
import { HTTP_STATUS_BY_KIND, isDomainError } from '../errors.ts'

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isDomainError(error)) {
      return reply.code(HTTP_STATUS_BY_KIND[error.kind]).send({ error: error.kind, message: error.message })
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: error.code ?? 'Bad Request', message: error.message })
    }
    request.log.error({ err: error }, 'request failed')
    return reply
      .code(500)
      .send({ error: 'Internal Server Error', message: 'Something went wrong', requestId: request.id })
  })
}
