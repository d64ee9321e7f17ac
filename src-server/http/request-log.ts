// One access-log line per answered request (Fastify's default writes two: "incoming request" and "request
// completed"), written when the answer has gone, with what an operator looks for. Half the log writes on the hot path.
import type { FastifyInstance } from 'fastify'

export function registerRequestLog(app: FastifyInstance) {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    )
    done()
  })
}
