// Recognises "the database cannot be reached right now" among errors, wherever they were wrapped (tRPC and our
// own errors keep the original as `cause`). Such failures answer 503 with Retry-After, never 500: the request was
// fine, our dependency is not, and trying again shortly will work.

/** How long clients are told to wait (Retry-After, seconds). */
export const RETRY_AFTER_SECONDS = 5

/** Socket-level failures reaching the server (node-postgres reports them with these codes). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/**
 * PostgreSQL SQLSTATEs: 57P01 admin shutdown (`pg_ctl stop -m fast`), 57P02 crash shutdown, 57P03 cannot connect
 * now (starting up or shutting down), 53300 too many connections; class 08 is "connection exception".
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300'])

/** Messages node-postgres, pg-pool and PGlite use for a lost or unobtainable connection (they carry no code). */
const MESSAGES = [
  'Connection terminated', // …unexpectedly / …due to connection timeout
  'timeout exceeded when trying to connect', // pg-pool's connectionTimeoutMillis
  'is not queryable', // a client whose connection already failed
  'Cannot use a pool after calling end on the pool',
  'PGlite is closed',
]

function isUnavailableError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) {
    return true
  }
  return typeof message === 'string' && MESSAGES.some((text) => message.includes(text))
}

/** True when the error, its causes or (for AggregateError, as Node's connect gives) its parts say so. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>()
  const pending = [error]
  while (pending.length > 0) {
    const current = pending.pop()
    if (!current || typeof current !== 'object' || seen.has(current)) continue
    seen.add(current)
    // fetch's network failures are outside services (Stripe, S3, OAuth), not our database.
    if (current instanceof TypeError && current.message === 'fetch failed') continue
    if (isUnavailableError(current)) return true
    pending.push((current as { cause?: unknown }).cause)
    if (current instanceof AggregateError) pending.push(...current.errors)
  }
  return false
}
