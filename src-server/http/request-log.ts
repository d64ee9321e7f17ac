// One access-log line per request (Fastify's default writes two, "incoming request" and "request completed", each
// serialising the whole request or reply): written when the answer has gone, with what an operator looks for.
// Half the log writes, and lighter ones, on the hot path. The URL is logged with its secrets redacted (mailed
// links carry tokens in their query).
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify'
import pino from 'pino'
import { redactUrl } from '../kernel/redact.ts'

/** URLs up to this long have their redacted form kept (the same catalogue URLs come again and again). */
const REMEMBERED_URL_LENGTH = 512
const REMEMBERED_URLS = 1000
/** A URL as the access line shows it: redacted, and as a JSON string (its quotes and escapes). */
const loggedUrls = new Map<string, string>()

/** redactUrl's answer as a JSON string, remembered for the last short URLs seen (it parses a tRPC input: issue 37). */
function loggedUrl(url: string): string {
  if (url.length > REMEMBERED_URL_LENGTH) return JSON.stringify(redactUrl(url))
  let logged = loggedUrls.get(url)
  if (logged === undefined) {
    logged = JSON.stringify(redactUrl(url))
    if (loggedUrls.size >= REMEMBERED_URLS) loggedUrls.clear()
    loggedUrls.set(url, logged)
  }
  return logged
}

const { lsCacheSym, timeSym, chindingsSym, streamSym, mixinSym, messageKeySym, formattersSym, hooksSym } = pino.symbols
const INFO = 30
/** A pino logger's own part, read through pino.symbols (its level prefixes, clock, bindings, stream, options). */
function part<T>(logger: FastifyBaseLogger, symbol: symbol): T {
  return (logger as unknown as Record<symbol, T>)[symbol] as T
}

/**
 * Whether the logger is pino's and would write a line as writeAccessLine does: no mixin, log formatter or write hook,
 * `msg` as the key. (Without a logger Fastify gives each request one whose methods do nothing.)
 */
function plainLogger(logger: FastifyBaseLogger): boolean {
  return (
    part(logger, lsCacheSym) !== undefined &&
    part(logger, mixinSym) === undefined &&
    part<{ log?: unknown }>(logger, formattersSym).log === undefined &&
    part<{ streamWrite?: unknown }>(logger, hooksSym).streamWrite === undefined &&
    part(logger, messageKeySym) === 'msg'
  )
}

/**
 * The access line of a successful request, as pino writes `log.info({ method, url, statusCode, ms }, 'request')`: the
 * same fields in the same order after the level, time and bindings pino keeps. Joined here, without the call through
 * pino's level method, its logMethod hook (which looks for URLs to redact in the message; 'request' has none) and its
 * serialiser loop: half the line's cost on a kept catalogue answer (issue 37). A logger set up otherwise goes
 * through pino (tests/unit/request-log.test.ts compares the two).
 */
export function writeAccessLine(
  log: FastifyBaseLogger,
  method: string,
  jsonUrl: string,
  statusCode: number,
  ms: number,
): void {
  if (!plainLogger(log)) {
    log.info({ method, url: JSON.parse(jsonUrl) as string, statusCode, ms }, 'request')
    return
  }
  if (!(log as pino.Logger).isLevelEnabled('info')) return
  const level = part<Record<number, string>>(log, lsCacheSym)[INFO]
  const time = part<() => string>(log, timeSym)()
  part<{ write(line: string): unknown }>(log, streamSym).write(
    `${level}${time}${part<string>(log, chindingsSym)},"method":${JSON.stringify(method)},"url":${jsonUrl},` +
      `"statusCode":${statusCode},"ms":${ms},"msg":"request"}\n`,
  )
}

export class OneLineRequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const ms = Math.round(reply.elapsedTime)
    if (error) {
      const line = { method: request.method, url: redactUrl(request.url), statusCode: reply.statusCode, ms }
      reply.log.error({ ...line, err: error }, 'request errored')
    } else {
      writeAccessLine(reply.log, request.method, loggedUrl(request.url), reply.statusCode, ms)
    }
  }
}
