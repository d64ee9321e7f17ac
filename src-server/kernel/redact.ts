// What the logs and the audit log never hold: the value of anything named like a secret. Links in mails carry
// tokens in their query (/verify-email?token=…, /admin/accept-invite?token=…), OAuth callbacks carry code and
// state, tRPC GET requests carry their input as JSON in ?input=…; whoever reads a log must not be able to use them.

export const REDACTED = '[redacted]'

/** Names whose word parts include one of these are secret: `code`, `reset_token`, `apiKey`, `X-Amz-Signature`. */
const SECRET_PARTS = new Set([
  'token',
  'code',
  'state',
  'password',
  'passwd',
  'pass',
  'pwd',
  'secret',
  'session',
  'key',
  'signature',
  'sig',
  'otp',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'jwt',
])
/** Long enough not to occur by chance, so also found inside a run-together name (`resettoken`, `newpassword`). */
const SECRET_INFIXES = ['token', 'password', 'passwd', 'secret', 'signature', 'credential', 'session', 'apikey']

/** The word parts of a name in any case style: `X-Amz-Signature`, `session_id`, `apiKey`, `APIKey`. */
function wordParts(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
}

export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase()
  return SECRET_INFIXES.some((word) => lower.includes(word)) || wordParts(name).some((part) => SECRET_PARTS.has(part))
}

/** Links and paths with a query string inside a text (an error message, a stack, a field of a record). */
const ADDRESS_WITH_QUERY = /(?:https?:\/\/|\/)[^\s"'<>?]*\?[^\s"'<>]*/g

/** `text` with the query of every link or path in it redacted. */
export function redactUrlsIn(text: string): string {
  return text.includes('?') ? text.replace(ADDRESS_WITH_QUERY, redactUrl) : text
}

/** How a mail shows a code to type (a confirmation code): a line of its own, which mailText below recognises. */
export const mailCodeLine = (code: string) => `  Code: ${code}`
const MAIL_CODE_LINE = /^( {2}Code: )\S+$/gm

/** A mail's text as a log or a reader other than its recipient may see it: links' tokens and typed codes redacted. */
export function redactMailText(text: string): string {
  return redactUrlsIn(text).replace(MAIL_CODE_LINE, `$1${REDACTED}`)
}

/**
 * A copy of `value` with every secret-named property, at any depth, replaced by "[redacted]", and links in its
 * strings redacted. Names in `keep` are kept whatever they look like (an error's `code` names the error).
 */
export function redactSecrets(value: unknown, keep: ReadonlySet<string> = new Set()): unknown {
  if (typeof value === 'string') return redactUrlsIn(value)
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, keep))
  if (value === null || typeof value !== 'object' || value instanceof Date) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      isSecretName(key) && !keep.has(key) ? REDACTED : redactSecrets(inner, keep),
    ]),
  )
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '))
  } catch {
    return null
  }
}

/** tRPC's GET input (`?input=` or `?batch=1&input=`): the JSON with its secrets redacted, or nothing if unreadable. */
function redactTrpcInput(raw: string): string {
  const text = decode(raw)
  if (text === null) return REDACTED
  try {
    // Decoded, so the rest of the input reads plainly in the log.
    return JSON.stringify(redactSecrets(JSON.parse(text)))
  } catch {
    return REDACTED
  }
}

/** One `name=value` of a query string, with the value redacted if the name is secret (or cannot be read). */
function redactParameter(pair: string, trpc: boolean): string {
  const equals = pair.indexOf('=')
  if (equals < 0) return pair
  const rawName = pair.slice(0, equals)
  const rawValue = pair.slice(equals + 1)
  const name = decode(rawName)
  if (name === null || isSecretName(name)) return `${rawName}=${REDACTED}`
  if (trpc && name === 'input') return `${rawName}=${redactTrpcInput(rawValue)}`
  // A value that is itself an address with a query (`?redirect=/reset-password%3Ftoken%3D…`).
  const value = decode(rawValue)
  if (value === null) return `${rawName}=${REDACTED}`
  if (!value.includes('?')) return pair
  const redacted = redactUrl(value)
  return redacted === value ? pair : `${rawName}=${encodeURIComponent(redacted).replaceAll('%5Bredacted%5D', REDACTED)}`
}

/**
 * A URL (absolute or a request's path) as it may be logged: every secret-named query parameter's value is
 * "[redacted]", as are tRPC inputs' secret-named fields. Never throws, whatever the encoding.
 */
export function redactUrl(url: string): string {
  const question = url.indexOf('?')
  if (question < 0) return url
  const hash = url.indexOf('#', question)
  const query = url.slice(question + 1, hash < 0 ? undefined : hash)
  const path = url.slice(0, question)
  const trpc = path.includes('/trpc/')
  const redacted = query
    .split('&')
    .map((pair) => redactParameter(pair, trpc))
    .join('&')
  return `${path}?${redacted}${hash < 0 ? '' : url.slice(hash)}`
}
