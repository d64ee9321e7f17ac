// Boots the real server on a free port for HTTP-level tests, with helpers for tRPC calls and cookies.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Writable } from 'node:stream'
import type { DB } from '../../src-server/kernel/db.ts'
import { createServer, type Server, type ServerDeps } from '../../src-server/server.ts'

export interface TestServer {
  baseUrl: string
  dataDir: string
  uploadsDir: string
  server: Server
  stop(): Promise<void>
}

export interface TestServerOptions {
  env?: Partial<ServerDeps['env']>
  limiter?: ServerDeps['limiter']
  storage?: ServerDeps['storage']
  payments?: ServerDeps['payments']
  /** Serve a minimal built client (index.html), so the SPA fallback answers as in production. */
  clientShell?: boolean
  /**
   * With `clientShell`: the source of a server renderer's entry (an ES module exporting `render`, as dist/ssr's does),
   * so pages are rendered on the server through it.
   */
  ssrEntry?: string
  /** Receives the server's JSON log lines (info and up); without it the server logs nothing. */
  logStream?: Writable
}

export async function startTestServer(db: DB, options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'storefront-http-'))
  const clientDir = path.join(dataDir, options.clientShell ? 'client' : 'no-client')
  if (options.clientShell) {
    await mkdir(clientDir)
    await writeFile(
      path.join(clientDir, 'index.html'),
      options.ssrEntry
        ? '<!doctype html><html><head><title>app shell</title></head><body><div id="root"></div></body></html>'
        : '<!doctype html><title>app shell</title>',
    )
    if (options.ssrEntry) {
      await mkdir(path.join(dataDir, 'ssr'))
      await writeFile(path.join(dataDir, 'ssr', 'entry-server.js'), options.ssrEntry)
    }
  }
  const server = await createServer({
    env: {
      NODE_ENV: 'test',
      PORT: 0,
      HOST: '127.0.0.1',
      CLIENT_DIR: clientDir,
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      PUBLIC_URL: 'http://storefront.test',
      STAFF_2FA: 'optional',
      ...options.env,
    },
    db,
    logger: options.logStream ? { level: 'info', stream: options.logStream } : false,
    limiter: options.limiter,
    storage: options.storage,
    payments: options.payments,
  })
  const baseUrl = await server.start()
  return {
    baseUrl,
    dataDir,
    uploadsDir: path.join(dataDir, 'uploads'),
    server,
    async stop() {
      // A test that never read a response (or a request still hanging) must not keep the server from closing.
      server.app.server.closeAllConnections()
      await server.stop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** A POST to a tRPC mutation as the browser sends it from the site itself. */
export function trpcPost(
  baseUrl: string,
  procedure: string,
  input: unknown,
  headers: Record<string, string> = {},
  /** Gives up (a request that would hang fails the test, not its timeout). */
  signal?: AbortSignal,
) {
  return fetch(`${baseUrl}/trpc/${procedure}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://storefront.test', ...headers },
    body: JSON.stringify(input),
    signal,
  })
}

/** The Set-Cookie header of a response for one cookie name, or undefined. */
export function setCookieFor(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`))
}

/** "name=value" of a Set-Cookie line, to send back in a Cookie header. */
export function cookiePair(setCookie: string | undefined): string {
  return setCookie?.split(';')[0] ?? ''
}
