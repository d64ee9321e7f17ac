// The real server with every dependency a test may need to set (payments, storage, a built client shell), for the
// fuzz, outage and error-exposure tests. startTestServer (http.ts) stays the simple default.
import type { DB } from '../../src-server/kernel/db.ts'
import { defaultPayments } from '../../src-server/payments/config.ts'
import type { ServerDeps } from '../../src-server/server.ts'
import { startTestServer, type TestServer } from './http.ts'

export const TEST_ORIGIN = 'http://storefront.test'
export const WEBHOOK_SECRET = 'whsec_test_full_server'

export type FullServer = TestServer

export function startFullServer(
  db: DB,
  options: { env?: Partial<ServerDeps['env']>; storage?: ServerDeps['storage'] } = {},
): Promise<FullServer> {
  return startTestServer(db, {
    ...options,
    clientShell: true,
    payments: { ...defaultPayments, stripeWebhookSecret: WEBHOOK_SECRET },
  })
}

/** A well-formed session token that no database holds: resolving it needs a query, so it fails in an outage. */
export const UNKNOWN_SESSION_COOKIE = `session=${'a'.repeat(32)}.${'b'.repeat(32)}`
