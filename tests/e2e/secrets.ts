// The secrets an end-to-end run used, kept in E2E_SECRETS_FILE (one a line) for the log audit at its end
// (log-audit.check.ts): what the server was given (scripts/e2e-server.ts), what the fixtures saw typed into
// password fields or sent under a secret's name (fixtures.ts), and the tokens of the links the server mailed.
import { appendFileSync, readFileSync } from 'node:fs'
import type { BrowserContext, Request } from '@playwright/test'
import { isSecretName } from '../../src-server/kernel/redact.ts'

const SECRETS_FILE = process.env.E2E_SECRETS_FILE as string

/**
 * A UUID is a row's id, never a secret here (tokens, keys and session tokens are random base32 or prefixed strings:
 * auth/tokens.ts, auth/session.ts), though its field may be named like one: a live session's `sessionId` is also in
 * its join page's address (/live/<id>/join), by design.
 */
const ROW_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The values of secret-named fields of a parsed JSON value, at any depth. */
export function secretsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(secretsIn)
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, inner]) =>
    isSecretName(key) && typeof inner === 'string' ? (ROW_ID.test(inner) ? [] : [inner]) : secretsIn(inner),
  )
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** The values of a URL's secret-named query parameters, and those of a tRPC GET's JSON input. */
export function secretsOfUrl(address: string): string[] {
  const url = URL.parse(address)
  if (!url) return []
  return [...url.searchParams].flatMap(([name, value]) => {
    if (isSecretName(name)) return [value]
    return name === 'input' && url.pathname.startsWith('/trpc/') ? secretsIn(parseJson(value)) : []
  })
}

/** What a browser request carries under a secret's name: in its URL, or in a JSON or form body. */
function secretsOfRequest(request: Request): string[] {
  const body = request.postData() ?? ''
  const form = request.headers()['content-type']?.includes('application/x-www-form-urlencoded')
  const inBody = form
    ? [...new URLSearchParams(body)].filter(([name]) => isSecretName(name)).map(([, value]) => value)
    : secretsIn(parseJson(body))
  return [...secretsOfUrl(request.url()), ...inBody]
}

/**
 * Starts recording what `context` sees of secrets into `found`: every value typed into a password field (reported
 * by a script in each page, on each input event) and every request's secret-named values.
 */
export async function watchForSecrets(context: BrowserContext, found: Set<string>) {
  await context.exposeBinding('__e2eRecordSecret', (_source, value: string) => found.add(value))
  await context.addInitScript(() => {
    const report = (event: Event) => {
      const field = event.target
      const password = field instanceof HTMLInputElement && (field.type === 'password' || /password/i.test(field.name))
      if (password && field.value) {
        ;(window as unknown as { __e2eRecordSecret(value: string): void }).__e2eRecordSecret(field.value)
      }
    }
    // Capture phase: seen before the app's handlers, whatever they do with the event.
    document.addEventListener('input', report, true)
    document.addEventListener('change', report, true)
  })
  context.on('request', (request) => {
    for (const value of secretsOfRequest(request)) found.add(value)
  })
}

/**
 * Appends `found` to the secrets file. A field typed key by key reports each prefix of what was typed: those are
 * left out, the whole value is kept.
 */
export function recordSecrets(found: Set<string>) {
  const values = [...found].filter((value) => {
    if (value.includes('\n')) return false
    return ![...found].some((other) => other !== value && other.startsWith(value))
  })
  if (values.length) appendFileSync(SECRETS_FILE, values.map((value) => `${value}\n`).join(''))
}

export function readRecordedSecrets(): string[] {
  return readFileSync(SECRETS_FILE, 'utf8').split('\n').filter(Boolean)
}
