// Probes. /healthz (alias /livez): liveness, the process is up and serving; it never touches the database (a
// restart would not help an outage). /readyz: readiness, the database answers within a short time, else 503 with
// Retry-After (take the node out of rotation).
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { SERVICE_UNAVAILABLE_MESSAGE } from '../../src-shared/errors.ts'
import type { DB } from '../kernel/db.ts'
import { RETRY_AFTER_SECONDS } from '../kernel/db-unavailable.ts'

const READY_TIMEOUT_MS = 2000

export function registerHealthRoutes(app: FastifyInstance, db: DB) {
  // Probes run every few seconds: only their failures are worth a log line.
  // /healthz and /livez are the same liveness check: 200 while the process serves, even during a database outage
  // (container health checks restart on failure, and a restart cures no outage). /livez is kept as an alias for
  // orchestrators that expect the Kubernetes names.
  const live = async () => ({ status: 'ok' })
  app.get('/healthz', { logLevel: 'warn' }, live)
  app.get('/livez', { logLevel: 'warn' }, live)

  app.get('/readyz', { logLevel: 'warn' }, async (request, reply) => {
    try {
      await withTimeout(sql`select 1`.execute(db), READY_TIMEOUT_MS)
      return { status: 'ok', database: 'ok' }
    } catch (error) {
      request.log.warn({ err: error }, 'readiness: database unavailable')
      return reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ status: 'unavailable', database: 'unavailable', message: SERVICE_UNAVAILABLE_MESSAGE })
    }
  })
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })
}
