import type { FastifyRequest } from 'fastify'
import pino from 'pino'
import { redactSecrets, redactUrl, redactUrlsIn } from './redact.ts'
// What domain code needs from a logger: Fastify's pino logger satisfies it, and so does a test's capturing one.
export interface Log {
  info(details: object, message: string): void
  warn(details: object, message: string): void
  error(details: object, message: string): void
}

/**
 * Where the server's log lines go: standard output, written in batches of up to 4 KB and at least once a second
 * (and on exit), instead of one synchronous write per line, which cost ~5 % of a small request's CPU (decision 0030).
 */
export function batchedStdout() {
  return pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 })
}

type SerializedError = ReturnType<typeof pino.stdSerializers.err>

// An error's code ('ECONNREFUSED', '23505', 'INTERNAL_SERVER_ERROR') names what went wrong, never a secret.
const ERROR_FIELDS_KEPT = new Set(['code'])

/**
 * Pino options for every logger of the app (Fastify merges the serializers over its own), so that no log line
 * holds a secret: a logged request shows its URL redacted; a logged error loses secret-named fields and the
 * secrets of links in its message and stack (`new URL(…)` and HTTP clients put whole addresses there); so do
 * message texts (Fastify's own warnings quote the request's URL).
 */
export const redactingLogOptions = {
  serializers: {
    req: (request: FastifyRequest) => ({
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
    }),
    err: (error: Error) => redactSecrets(pino.stdSerializers.err(error), ERROR_FIELDS_KEPT) as SerializedError,
  },
  hooks: {
    logMethod(this: pino.Logger, args: unknown[], write: pino.LogFn) {
      // Copied only when a text holds a query string to redact (the access log's message never does: issue 37).
      let redacted = args
      for (let index = 0; index < args.length; index++) {
        const arg = args[index]
        if (typeof arg !== 'string') continue
        const clean = redactUrlsIn(arg)
        if (clean === arg) continue
        if (redacted === args) redacted = [...args]
        redacted[index] = clean
      }
      return write.apply(this, redacted as Parameters<pino.LogFn>)
    },
  },
} satisfies pino.LoggerOptions
