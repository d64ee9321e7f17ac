// POST /api/profile/avatar: one image (judged by its bytes), at most 2 MB, for the signed-in user.
import type { FastifyInstance } from 'fastify'
import { AVATAR_MAX_BYTES } from '../../src-shared/constants.ts'
import { requireUser } from '../auth/require-user.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { sendIfUnavailable } from '../kernel/error-mapping.ts'
import { AVATAR_MESSAGES, replaceAvatar } from '../profile/editing.ts'
import { UPLOAD_ROUTE_LIMIT } from '../security/rate-limit.ts'
import { readImageUpload, sendUploadRefusal } from '../storage/upload.ts'

export function registerProfileRoutes(app: FastifyInstance, deps: HttpDeps) {
  app.post('/api/profile/avatar', { config: UPLOAD_ROUTE_LIMIT }, async (request, reply) => {
    const user = await requireUser(deps, request, reply)
    if (!user) return reply
    let image: Awaited<ReturnType<typeof readImageUpload>>
    try {
      image = await readImageUpload(request, AVATAR_MAX_BYTES, AVATAR_MESSAGES.tooLarge)
    } catch (error) {
      return sendUploadRefusal(request, reply, error, 'avatar upload')
    }
    try {
      const avatarUrl = await replaceAvatar(deps.db, deps.storage, user.id, image, request.log)
      return { avatarUrl, message: AVATAR_MESSAGES.updated }
    } catch (error) {
      const unavailable = sendIfUnavailable(request, reply, error)
      if (unavailable) return unavailable
      request.log.error({ err: error }, 'avatar upload failed')
      return reply.code(500).send({ error: 'Internal Server Error', message: AVATAR_MESSAGES.failed })
    }
  })
}
