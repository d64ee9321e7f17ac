// Lesson media and files, each behind the session and the same access rule as the lesson itself (checked before a
// missing video or rendition answers 404, so the answer tells nothing about a lesson the caller cannot open):
//   GET /api/learn/media/:lessonId           the lesson's video file, with HTTP Range (seeking, resuming); once its
//                                            HLS renditions exist, the original only to the course's editors, a
//                                            rendition's single MP4 (≤ 720p) to learners (saved offline too)
//   GET /api/learn/hls/:lessonId/<file>      its HLS renditions: master.m3u8, <h>p/index.m3u8, <h>p/stream.mp4
//                                            (segments are byte ranges of it), poster.jpg — the check on every request
//   GET /api/uploads/videos/:uploadId/original  a creator's own uploaded original, as a download
//   GET /api/learn/attachments/:attachmentId  a lesson's downloadable file
//   GET /api/certificates/:id/pdf             a certificate as PDF (public, like its page)
// Lesson files live under storage keys no public route serves (the /uploads static route refuses private/), so a
// locked lesson's media cannot be fetched by guessing its address. The demo videos the seed refers to ('demo/…')
// are read from the seed's media folder.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { withStaffReach } from '../auth/require-user.ts'
import { findAttachment, findCourseForLearning, findLessonRow } from '../catalog/repository-lessons.ts'
import { certificateView } from '../flows/certificates.ts'
import { canPreviewLesson } from '../flows/lesson-access.ts'
import { editsCourse, lessonVideoRenditions, ownOriginal, type VideoRenditions } from '../flows/lesson-video-files.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { isDomainError } from '../kernel/errors.ts'
import { isUuid } from '../kernel/uuid.ts'
import { parseRange } from '../learning/byte-range.ts'
import { HLS_CONTENT_TYPES, HLS_FILE } from '../storage/hls.ts'
import { createLocalStorage, type FileStorage } from '../storage/storage.ts'

const DEMO_PREFIX = 'demo/'
const demoMedia = createLocalStorage(fileURLToPath(new URL('../../db/seed/media/', import.meta.url)))
const VIDEO_TYPES: Record<string, string> = { '.mp4': 'video/mp4', '.webm': 'video/webm', '.mov': 'video/quicktime' }

function source(storage: FileStorage, key: string): { storage: FileStorage; key: string } {
  return key.startsWith(DEMO_PREFIX) ? { storage: demoMedia, key: key.slice(DEMO_PREFIX.length) } : { storage, key }
}

async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: { storage: FileStorage; key: string },
  contentType: string,
  disposition?: string,
  cacheControl = 'private, no-cache',
) {
  const size = await file.storage.size(file.key)
  if (size === null) return reply.code(404).send({ error: 'Not Found', message: 'File not found' })
  const range = parseRange(request.headers.range, size)
  reply
    .header('Accept-Ranges', 'bytes')
    .header('Content-Type', contentType)
    .header('Cache-Control', cacheControl)
    .header('X-Content-Type-Options', 'nosniff')
  if (disposition) reply.header('Content-Disposition', disposition)
  if (range === 'unsatisfiable') return reply.code(416).header('Content-Range', `bytes */${size}`).send()
  if (!range) return reply.header('Content-Length', size).send(await file.storage.read(file.key))
  return reply
    .code(206)
    .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
    .header('Content-Length', range.end - range.start + 1)
    .send(await file.storage.read(file.key, range))
}

async function mayOpen(
  deps: HttpDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  courseId: string,
  lesson: { id: string; isPreview: boolean },
) {
  const session = await deps.resolveSession(request, reply)
  // An admin or owner without the second factor STAFF_2FA requires has no staff reach into courses (decision 0052).
  const user = session.user && withStaffReach(deps.config, session.user)
  const course = await findCourseForLearning(deps.db, courseId)
  if (course && (await canPreviewLesson(deps.db, user, course, lesson))) return { user }
  await reply
    .code(user ? 403 : 401)
    .send({ error: user ? 'Forbidden' : 'Unauthorized', message: 'You do not have access to this lesson' })
  return false
}

/** The rendition a learner's plain download gets: the tallest up to 720p (small enough to save on a phone). */
function fileRendition(renditions: VideoRenditions): string | null {
  if (!renditions.prefix) return null
  const height = renditions.heights.filter((h) => h <= 720).at(-1) ?? renditions.heights[0]
  return height ? `${renditions.prefix}${height}p/stream.mp4` : null
}

const notFound = (reply: FastifyReply) => reply.code(404).send({ error: 'Not Found', message: 'File not found' })

export function registerLearningRoutes(app: FastifyInstance, deps: HttpDeps) {
  app.get<{ Params: { lessonId: string } }>('/api/learn/media/:lessonId', async (request, reply) => {
    const { lessonId } = request.params
    if (!isUuid(lessonId)) return notFound(reply)
    const row = await findLessonRow(deps.db, null, lessonId)
    if (!row) return notFound(reply)
    // The check before the video's absence: a 404 would tell anyone whether a lesson they cannot open has a video.
    const allowed = await mayOpen(deps, request, reply, row.course_id, { id: row.id, isPreview: row.is_preview })
    if (!allowed) return reply
    if (!row.video_key) return notFound(reply)
    // With renditions, the original (the creator's master, often huge) is the course's editors' only.
    const renditions = row.video_key.startsWith(DEMO_PREFIX)
      ? null
      : await lessonVideoRenditions(deps.db, row.video_key)
    const rendition = renditions ? fileRendition(renditions) : null
    if (rendition && !(allowed.user && (await editsCourse(deps.db, allowed.user.id, row.course_id)))) {
      return sendFile(request, reply, { storage: deps.storage, key: rendition }, 'video/mp4')
    }
    const type = VIDEO_TYPES[path.extname(row.video_key).toLowerCase()] ?? 'application/octet-stream'
    return sendFile(request, reply, source(deps.storage, row.video_key), type)
  })

  // Every playlist, segment (a byte range of <h>p/stream.mp4) and the poster pass the lesson's check, with the
  // session cookie the page's own requests carry: no token in any URL (decision 0064).
  app.get<{ Params: { lessonId: string; '*': string } }>('/api/learn/hls/:lessonId/*', async (request, reply) => {
    const { lessonId } = request.params
    const file = request.params['*']
    const match = HLS_FILE.exec(file)
    if (!isUuid(lessonId) || !match) return notFound(reply)
    const row = await findLessonRow(deps.db, null, lessonId)
    if (!row) return notFound(reply)
    // The check first: which lessons have a video, renditions and which heights is for those who may open it.
    if (!(await mayOpen(deps, request, reply, row.course_id, { id: row.id, isPreview: row.is_preview }))) return reply
    if (!row.video_key) return notFound(reply)
    const renditions = await lessonVideoRenditions(deps.db, row.video_key)
    if (!renditions?.prefix) return notFound(reply)
    if (match[1] && !renditions.heights.includes(Number(match[1]))) return notFound(reply)
    const type = HLS_CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream'
    // Segments and the poster never change under their key; playlists are tiny.
    const cache = file.endsWith('.m3u8') ? 'private, no-cache' : 'private, max-age=86400'
    return sendFile(
      request,
      reply,
      { storage: deps.storage, key: `${renditions.prefix}${file}` },
      type,
      undefined,
      cache,
    )
  })

  app.get<{ Params: { uploadId: string } }>('/api/uploads/videos/:uploadId/original', async (request, reply) => {
    const { user } = await deps.resolveSession(request, reply)
    if (!user) return reply.code(401).send({ error: 'Unauthorized', message: 'Please sign in' })
    const { uploadId } = request.params
    const upload = /^[A-Za-z0-9_-]{1,128}$/.test(uploadId) ? await ownOriginal(deps.db, user.id, uploadId) : null
    if (!upload) return notFound(reply)
    const name = encodeURIComponent(upload.fileName)
    return sendFile(
      request,
      reply,
      { storage: deps.storage, key: upload.storageKey },
      upload.contentType ?? 'application/octet-stream',
      `attachment; filename*=UTF-8''${name}`,
    )
  })

  app.get<{ Params: { attachmentId: string } }>('/api/learn/attachments/:attachmentId', async (request, reply) => {
    const { attachmentId } = request.params
    if (!isUuid(attachmentId)) return notFound(reply)
    const file = await findAttachment(deps.db, attachmentId)
    if (!file) return notFound(reply)
    if (!(await mayOpen(deps, request, reply, file.course_id, { id: file.lesson_id, isPreview: file.is_preview })))
      return reply
    const name = encodeURIComponent(file.file_name)
    return sendFile(
      request,
      reply,
      source(deps.storage, file.storage_key),
      file.content_type,
      `attachment; filename*=UTF-8''${name}`,
    )
  })

  app.get<{ Params: { id: string } }>('/api/certificates/:id/pdf', async (request, reply) => {
    // Only "no such certificate" is a 404: a database outage goes to the error handler (503), not "not found".
    const view = await certificateView(deps.db, request.params.id, deps.config.publicUrl).catch((error: unknown) => {
      if (isDomainError(error) && error.kind === 'not_found') return null
      throw error
    })
    if (!view) return notFound(reply)
    // Loaded on the first download, not at start-up (the PDF library is slow to load).
    const { certificatePdf } = await import('../learning/certificate-pdf.ts')
    const pdf = await certificatePdf(view)
    return reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `attachment; filename="certificate-${view.id}.pdf"`)
      .header('Cache-Control', 'private, no-cache')
      .send(Buffer.from(pdf))
  })
}
