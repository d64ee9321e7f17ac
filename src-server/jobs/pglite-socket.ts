// pg-boss speaks to the embedded database through a PostgreSQL wire-protocol server over the same PGlite
// instance: loopback only, a random free port, one connection (PGlite has one session). The socket sees the
// instance through exclusiveSession, so its statements never run inside an app transaction or vice versa.
import type { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { exclusiveSession } from './pglite-exclusive.ts'

export interface PgliteSocket {
  /** A postgres:// URL for a client with a pool of exactly one connection. */
  connectionString: string
  stop(): Promise<void>
}

export async function servePgliteSocket(pglite: PGlite): Promise<PgliteSocket> {
  const session = exclusiveSession(pglite)
  const server = new PGLiteSocketServer({
    // The facade offers exactly the methods pglite-socket uses (see pglite-exclusive.ts).
    db: session as unknown as PGlite,
    host: '127.0.0.1',
    port: 0,
    maxConnections: 1,
  })
  await server.start()
  return {
    connectionString: `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`,
    async stop() {
      await server.stop()
      session.release()
    },
  }
}
