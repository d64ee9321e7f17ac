// Images in questions and answers under lessons (issue 33), by the existing upload rules:
//   POST /api/learn/post-images?courseId=…&lessonId=…  one image (judged by its bytes: PNG, JPEG, GIF, WebP), at
//        most POST_IMAGE_MAX_BYTES, from someone who may post under that lesson; answers its id, URL and Markdown
//   GET  /api/learn/post-images/:id  the image, to those who may see its lesson (else 404, so ids are not probed)
// The bytes live under a private storage key (the /uploads route never serves private/). An admin or owner without
// a second factor (STAFF_2FA=required) has no staff reach here, as in the questions procedures.
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { POST_IMAGE_MAX_BYTES, POST_IMAGE_PATH } from '../../src-shared/schemas/questions.ts'
import { withStaffReach } from '../auth/require-user.ts'
import { mayPostUnder, postImageFor } from '../flows/lesson-questions.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { isDomainError } from '../kernel/errors.ts'
import { isUuid } from '../kernel/uuid.ts'
import { insertPostImage } from '../learning/post-images.ts'
import { UPLOAD_ROUTE_LIMIT } from '../security/rate-limit.ts'
import { UPLOAD_PREFIXES } from '../storage/keys.ts'
import { readImageUpload, sendUploadRefusal } from '../storage/upload.ts'

export const POST_IMAGE_PREFIX = `${UPLOAD_PREFIXES.lessons}post-images/`
const COURSE_ID = /^[a-z0-9][a-z0-9-]{0,199}$/i
const TOO_LARGE = `Images in posts should be less than ${POST_IMAGE_MAX_BYTES / (1024 * 1024)}MB`

export function registerPostImageRoutes(app: FastifyInstance, deps: HttpDeps) {
  app.post<{ Querystring: { courseId?: string; lessonId?: string } }>(
    '/api/learn/post-images',
    { config: UPLOAD_ROUTE_LIMIT },
    async (request, reply) => {
      const { user } = await deps.resolveSession(request, reply)
      if (!user) return reply.code(401).send({ error: 'Unauthorized', message: 'User not authenticated' })
      const { courseId = '', lessonId = '' } = request.query
      if (!COURSE_ID.test(courseId) || !isUuid(lessonId)) {
        return reply.code(404).send({ error: 'Not Found', message: 'Lesson not found' })
      }
      const person = withStaffReach(deps.config, user)
      try {
        await mayPostUnder(deps.db, person, courseId, lessonId)
      } catch (error) {
        if (!isDomainError(error)) throw error
        const status = error.kind === 'not_found' ? 404 : 403
        return reply.code(status).send({ error: status === 404 ? 'Not Found' : 'Forbidden', message: error.message })
      }
      let image: Awaited<ReturnType<typeof readImageUpload>>
      try {
        image = await readImageUpload(request, POST_IMAGE_MAX_BYTES, TOO_LARGE)
      } catch (error) {
        return sendUploadRefusal(request, reply, error, 'post image upload')
      }
      const key = `${POST_IMAGE_PREFIX}${randomBytes(16).toString('hex')}.${image.type.ext}`
      await deps.storage.put(key, image.data, image.type.mime)
      const row = await insertPostImage(deps.db, {
        courseId,
        lessonId,
        uploaderId: user.id,
        storageKey: key,
        contentType: image.type.mime,
        size: image.data.length,
      })
      const url = `${POST_IMAGE_PATH}${row.id}`
      return { id: row.id, url, markdown: `![image](${url})` }
    },
  )

  app.get<{ Params: { id: string } }>(`${POST_IMAGE_PATH}:id`, async (request, reply) => {
    const notFound = () => reply.code(404).send({ error: 'Not Found', message: 'File not found' })
    if (!isUuid(request.params.id)) return notFound()
    const { user } = await deps.resolveSession(request, reply)
    const image = await postImageFor(deps.db, user ? withStaffReach(deps.config, user) : null, request.params.id)
    if (!image) return notFound()
    const size = await deps.storage.size(image.storage_key)
    if (size === null) return notFound()
    return reply
      .header('Content-Type', image.content_type)
      .header('Content-Length', size)
      .header('Cache-Control', 'private, max-age=300')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', 'inline')
      .send(await deps.storage.read(image.storage_key))
  })
}
