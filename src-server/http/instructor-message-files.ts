// Plain routes for attachments of messages to instructors (issue 34):
//   POST /api/instructor-messages/:courseId/files   one file (multipart) for the next message about the course
//   GET  /api/instructor-messages/files/:fileId     a file, for its thread's member and instructors (staff: reported)
// Both check the session; who may is the flow's (flows/instructor-messages.ts). Files never have a public URL.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { courseIdSchema } from '../../src-shared/schemas/catalog.ts'
import { MESSAGE_FILE_MAX_BYTES } from '../../src-shared/schemas/instructor-messages.ts'
import { requireUser, withStaffReach } from '../auth/require-user.ts'
import { downloadMessageFile, uploadMessageFile } from '../flows/instructor-messages.ts'
import { NOT_ALLOWED_FILE } from '../instructor-messages/files.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { DomainError } from '../kernel/errors.ts'
import { UPLOAD_ROUTE_LIMIT } from '../security/rate-limit.ts'
import { readOneFile, sendPrivateFile } from './private-files.ts'

const TOO_LARGE = 'Files can be at most 10 MB'
const courseParams = z.object({ courseId: courseIdSchema })
const fileParams = z.object({ fileId: z.uuid() })

export function registerInstructorMessageRoutes(app: FastifyInstance, deps: HttpDeps) {
  app.post('/api/instructor-messages/:courseId/files', { config: UPLOAD_ROUTE_LIMIT }, async (request, reply) => {
    const user = await requireUser(deps, request, reply)
    if (!user) return reply
    const params = courseParams.safeParse(request.params)
    if (!params.success) throw new DomainError('not_found', 'Course not found')
    const file = await readOneFile(request, reply, {
      maxBytes: MESSAGE_FILE_MAX_BYTES,
      tooLarge: TOO_LARGE,
      notAllowed: NOT_ALLOWED_FILE,
      what: 'message attachment',
    })
    if (!file) return reply
    return uploadMessageFile(deps.db, deps.storage, user, { courseId: params.data.courseId, ...file })
  })

  app.get('/api/instructor-messages/files/:fileId', async (request, reply) => {
    const user = await requireUser(deps, request, reply)
    if (!user) return reply
    const params = fileParams.safeParse(request.params)
    if (!params.success) throw new DomainError('not_found', 'File not found')
    // Staff read a reported thread's files only with the second factor STAFF_2FA requires (decision 0052).
    const file = await downloadMessageFile(deps.db, deps.storage, withStaffReach(deps.config, user), params.data.fileId)
    return sendPrivateFile(reply, file)
  })
}
