// The real server with every dependency a test may need to set (payments, storage, a built client shell), for the
// fuzz, outage and error-exposure tests. startTestServer (http.ts) stays the simple default.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { DB } from '../../src-server/db.ts'
import { defaultPayments } from '../../src-server/payments/config.ts'
import { createServer, type Server, type ServerDeps } from '../../src-server/server.ts'

export const TEST_ORIGIN = 'http://storefront.test'
export const WEBHOOK_SECRET = 'whsec_test_full_server'

export interface FullServer {
  baseUrl: string
  server: Server
  stop(): Promise<void>
}

export async function startFullServer(
  db: DB,
  options: { env?: Partial<ServerDeps['env']>; storage?: ServerDeps['storage'] } = {},
): Promise<FullServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'storefront-full-'))
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>app shell</title>')
  const server = await createServer({
    env: {
      NODE_ENV: 'test',
      PORT: 0,
      HOST: '127.0.0.1',
      CLIENT_DIR: dir,
      LOG_LEVEL: 'silent',
      DATA_DIR: dir,
      PUBLIC_URL: TEST_ORIGIN,
      ...options.env,
    },
    db,
    logger: false,
    storage: options.storage,
    payments: { ...defaultPayments, stripeWebhookSecret: WEBHOOK_SECRET },
  })
  const baseUrl = await server.start()
  return {
    baseUrl,
    server,
    async stop() {
      // Clients' keep-alive sockets can miss Fastify's one idle sweep at close and hold it for the 72 s keep-alive
      // timeout; every request is answered by now, so close them all.
      const stopping = server.stop()
      server.app.server.closeAllConnections()
      await stopping
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** A well-formed session token that no database holds: resolving it needs a query, so it fails in an outage. */
export const UNKNOWN_SESSION_COOKIE = `session=${'a'.repeat(32)}.${'b'.repeat(32)}`
