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
 * Where the server's log lines go: standard output, written in batches of 32 KB and at least once a second (and on
 * exit), instead of one synchronous write per line, which cost ~5 % of a small request's CPU (decision 0030). An
 * asynchronous write costs ~17 µs of CPU whatever its size (the thread pool's hand-over and its callback): with 4 KB
 * batches that was ~1 µs per access line, a few per cent of a kept catalogue answer (decision 0083).
 */
export function batchedStdout() {
  return gatheringLines(
    pino.destination({ dest: 1, sync: false, minLength: BATCH, maxWrite: 2 * BATCH, periodicFlush: 1000 }),
    BATCH,
  )
}
const BATCH = 32 * 1024

type Destination = ReturnType<typeof pino.destination>

/**
 * Lines gathered in a list and handed to sonic-boom joined, once a batch is full (and before each flush and the end).
 * sonic-boom appends each line to its pending text and then measures that whole text in bytes, which flattens it: with
 * a 4 KB batch every ~300-byte access-log line copied the text gathered so far, ~2 kB of garbage per request (issue 37).
 */
export function gatheringLines(stream: Destination, batch: number): Destination {
  const lines: string[] = []
  let length = 0
  const write = stream.write.bind(stream)
  const handOver = () => {
    if (lines.length === 0) return
    const text = lines.length === 1 ? (lines[0] as string) : lines.join('')
    lines.length = 0
    length = 0
    write(text)
  }
  stream.write = (line: string) => {
    lines.push(line)
    length += line.length
    if (length >= batch) handOver()
    return true
  }
  // The periodic flush, pino's flush on exit and the end go through these (sonic-boom calls them on the instance).
  const flush = stream.flush.bind(stream)
  const flushSync = stream.flushSync.bind(stream)
  const end = stream.end.bind(stream)
  stream.flush = (callback?: (error?: Error) => void) => {
    handOver()
    flush(callback)
  }
  stream.flushSync = () => {
    handOver()
    flushSync()
  }
  stream.end = () => {
    handOver()
    end()
  }
  return stream
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
