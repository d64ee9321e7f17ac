// Probes. /livez: the process is up and serving (no database; a restart would not help an outage). /readyz: the
// database answers within a short time, else 503 with Retry-After (take the node out of rotation). /healthz is the
// older combined check, kept as it was.
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { SERVICE_UNAVAILABLE_MESSAGE } from '../../src-shared/errors.ts'
import type { DB } from '../db.ts'
import { RETRY_AFTER_SECONDS } from '../db-unavailable.ts'

const HEALTH_TIMEOUT_MS = 3000
const READY_TIMEOUT_MS = 2000

export function registerHealthRoutes(app: FastifyInstance, db: DB) {
  app.get('/healthz', async (_request, reply) => {
    try {
      await withTimeout(sql`select 1`.execute(db), HEALTH_TIMEOUT_MS)
      return { status: 'ok', database: 'ok' }
    } catch (error) {
      app.log.error({ err: error }, 'health check: database unavailable')
      return reply.code(503).send({ status: 'error', database: 'unavailable' })
    }
  })

  // Probes run every few seconds: only their failures are worth a log line.
  app.get('/livez', { logLevel: 'warn' }, async () => ({ status: 'ok' }))

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
