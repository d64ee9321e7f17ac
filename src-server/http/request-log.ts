// One access-log line per request (Fastify's default writes two, "incoming request" and "request completed", each
// serialising the whole request or reply): written when the answer has gone, with what an operator looks for.
// Half the log writes, and lighter ones, on the hot path. The URL is logged with its secrets redacted (mailed
// links carry tokens in their query).
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify'
import { redactUrl } from '../kernel/redact.ts'

export class OneLineRequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    }
    if (error) reply.log.error({ ...line, err: error }, 'request errored')
    else reply.log.info(line, 'request')
  }
}
