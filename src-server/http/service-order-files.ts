// Plain routes for service-order files: upload one (multipart, ?purpose=brief|message|delivery) and download one.
// Both check the session and that the caller is the order's buyer or staff (an admin or owner only with the second
// factor STAFF_2FA requires, decision 0052); files are never at a public URL.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { SERVICE_FILE_MAX_BYTES, SERVICE_ORDER_MESSAGES } from '../../src-shared/service-orders.ts'
import { requireUser, withStaffReach } from '../auth/require-user.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { DomainError } from '../kernel/errors.ts'
import { UPLOAD_ROUTE_LIMIT } from '../security/rate-limit.ts'
import { notFound } from '../service-orders/access.ts'
import { readFileFor, storeFile } from '../service-orders/files.ts'
import { readOneFile, sendPrivateFile } from './private-files.ts'

const orderParams = z.object({ id: z.uuid() })
const fileParams = z.object({ id: z.uuid(), fileId: z.uuid() })
const uploadQuery = z.object({ purpose: z.enum(['brief', 'message', 'delivery']) })

export function registerServiceOrderRoutes(app: FastifyInstance, deps: HttpDeps) {
  app.post('/api/service-orders/:id/files', { config: UPLOAD_ROUTE_LIMIT }, async (request, reply) => {
    const user = await requireUser(deps, request, reply)
    if (!user) return reply
    const params = orderParams.safeParse(request.params)
    if (!params.success) throw notFound()
    const query = uploadQuery.safeParse(request.query)
    if (!query.success) throw new DomainError('invalid', 'Unknown kind of file')
    const file = await readOneFile(request, reply, {
      maxBytes: SERVICE_FILE_MAX_BYTES,
      tooLarge: SERVICE_ORDER_MESSAGES.fileTooLarge,
      notAllowed: SERVICE_ORDER_MESSAGES.notAllowedFile,
      what: 'service-order file',
    })
    if (!file) return reply
    return storeFile(deps.db, deps.storage, withStaffReach(deps.config, user), params.data.id, {
      purpose: query.data.purpose,
      ...file,
    })
  })

  app.get('/api/service-orders/:id/files/:fileId', async (request, reply) => {
    const user = await requireUser(deps, request, reply)
    if (!user) return reply
    const params = fileParams.safeParse(request.params)
    if (!params.success) throw notFound()
    const file = await readFileFor(
      deps.db,
      deps.storage,
      withStaffReach(deps.config, user),
      params.data.id,
      params.data.fileId,
    )
    return sendPrivateFile(reply, file)
  })
}
