// GET /api/account/exports/<id>.zip: a person's own data export (issue 28), for the signed-in person only — the id
// alone opens nothing — while it is ready and inside its 7 days. Never cached.
import type { FastifyInstance } from 'fastify'
import { requireUser } from '../auth/require-user.ts'
import { exportFileOf } from '../flows/data-export.ts'
import type { HttpDeps } from '../kernel/config.ts'

const EXPORT_FILE = /^([0-9a-f-]{36})\.zip$/

export function registerDataExportRoutes(app: FastifyInstance, deps: HttpDeps) {
  app.get<{ Params: { file: string } }>('/api/account/exports/:file', async (request, reply) => {
    const id = EXPORT_FILE.exec(request.params.file)?.[1]
    const user = await requireUser(deps, request, reply)
    if (!user) return reply
    const file = id ? await exportFileOf(deps.db, user.id, id) : null
    if (!file) {
      return reply.code(404).send({ error: 'Not Found', message: 'This export does not exist or has expired' })
    }
    const day = file.createdAt.toISOString().slice(0, 10)
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="skillforge-data-${day}.zip"`)
      .header('cache-control', 'private, no-store')
      .send(await deps.storage.read(file.key))
  })
}
