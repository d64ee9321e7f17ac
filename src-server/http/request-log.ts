// One access-log line per request (Fastify's default writes two, "incoming request" and "request completed", each
// serialising the whole request or reply): written when the answer has gone, with what an operator looks for.
// Half the log writes, and lighter ones, on the hot path. The URL is logged with its secrets redacted (mailed
// links carry tokens in their query).
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify'
import { redactUrl } from '../kernel/redact.ts'

/** URLs up to this long have their redacted form kept (the same catalogue URLs come again and again). */
const REMEMBERED_URL_LENGTH = 512
const REMEMBERED_URLS = 1000
const redactedUrls = new Map<string, string>()

/** redactUrl, remembered for the last short URLs seen (it parses a tRPC input's JSON to redact it: issue 37). */
export function redactedUrl(url: string): string {
  if (url.length > REMEMBERED_URL_LENGTH) return redactUrl(url)
  let redacted = redactedUrls.get(url)
  if (redacted === undefined) {
    redacted = redactUrl(url)
    if (redactedUrls.size >= REMEMBERED_URLS) redactedUrls.clear()
    redactedUrls.set(url, redacted)
  }
  return redacted
}

export class OneLineRequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = {
      method: request.method,
      url: redactedUrl(request.url),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    }
    if (error) reply.log.error({ ...line, err: error }, 'request errored')
    else reply.log.info(line, 'request')
  }
}
