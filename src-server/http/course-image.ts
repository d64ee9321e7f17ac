// POST /api/admin/course-image: an editor uploads a course image (checked by content, size-limited) to storage.
// POST /api/studio/course-image: the same for an approved creator (the studio's course details), rate-limited.
// The answer carries the URL: the admin's course dialog saves it with the course, the studio keeps it at once
// (`studio.setCourseImage`); `?replace=1` is an image being replaced.
import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { requireUser } from '../auth/require-user.ts'
import { isCreator } from '../creators/repository.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { UPLOAD_ROUTE_LIMIT } from '../security/rate-limit.ts'
import { UPLOAD_PREFIXES } from '../storage/keys.ts'
import { readImageUpload, sendUploadRefusal } from '../storage/upload.ts'

export const COURSE_IMAGE_MAX_BYTES = 2 * 1024 * 1024
export const COURSE_IMAGE_TOO_LARGE = 'Image size should be less than 2MB'

async function storeCourseImage(
  deps: HttpDeps,
  request: FastifyRequest<{ Querystring: { replace?: string } }>,
  reply: FastifyReply,
) {
  let image: Awaited<ReturnType<typeof readImageUpload>>
  try {
    image = await readImageUpload(request, COURSE_IMAGE_MAX_BYTES, COURSE_IMAGE_TOO_LARGE)
  } catch (error) {
    return sendUploadRefusal(request, reply, error, 'course image upload')
  }
  const key = `${UPLOAD_PREFIXES.courseImages}${Date.now()}-${randomBytes(6).toString('hex')}.${image.type.ext}`
  const url = await deps.storage.put(key, image.data, image.type.mime)
  const replacing = request.query.replace === '1'
  return { url, message: replacing ? 'Image updated successfully!' : 'Image uploaded successfully!' }
}

export function registerAdminImageRoutes(app: FastifyInstance, deps: HttpDeps) {
  app.post<{ Querystring: { replace?: string } }>('/api/admin/course-image', async (request, reply) => {
    const user = await requireUser(deps, request, reply, 'editor')
    if (!user) return
    return storeCourseImage(deps, request, reply)
  })

  app.post<{ Querystring: { replace?: string } }>(
    '/api/studio/course-image',
    { config: UPLOAD_ROUTE_LIMIT },
    async (request, reply) => {
      const user = await requireUser(deps, request, reply)
      if (!user) return
      if (!(await isCreator(deps.db, user.id))) {
        return reply.code(403).send({ error: 'Forbidden', message: 'Only approved creators can use the studio' })
      }
      return storeCourseImage(deps, request, reply)
    },
  )
}
