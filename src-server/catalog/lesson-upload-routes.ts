// Lesson files uploaded by editors, checked by content and size, stored under private/lessons/ (never public):
//   POST /api/admin/lesson-video       a video (MP4, MOV or WebM), up to LESSON_VIDEO_MAX_BYTES (200 MB)
//   POST /api/admin/lesson-attachment  a downloadable file (PDF, ZIP, image or text), up to 20 MB
// Each answers the storage key the lesson editor then saves on the lesson (catalog/lesson-editing.ts).
import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { requireUser } from '../auth/require-user.ts'
import type { HttpDeps } from '../config.ts'
import { UPLOAD_PREFIXES } from '../storage/keys.ts'
import { detectAttachmentType, detectVideoType, type MediaType } from '../storage/media.ts'

export const DEFAULT_LESSON_VIDEO_MAX_BYTES = 200 * 1024 * 1024
export const LESSON_ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024
export const LESSON_VIDEO_PREFIX = `${UPLOAD_PREFIXES.lessons}videos/`
export const LESSON_FILE_PREFIX = `${UPLOAD_PREFIXES.lessons}files/`

async function readUpload(request: FastifyRequest, maxBytes: number) {
  const file = await request.file({ limits: { fileSize: maxBytes, files: 1 } }).catch(() => undefined)
  if (!file) return { error: 'Please choose a file' as const }
  const data = await file.toBuffer().catch((error: unknown) => {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') return null
    throw error
  })
  if (!data || file.file.truncated) return { error: 'too-large' as const }
  return { data, name: file.filename.replace(/[^\w .()-]/g, '_').slice(0, 120) || 'file' }
}

async function handle(
  deps: HttpDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  options: {
    maxBytes: number
    tooLarge: string
    refused: string
    detect: (b: Uint8Array) => MediaType | null
    prefix: string
  },
) {
  const user = await requireUser(deps, request, reply, 'editor')
  if (!user) return reply
  const upload = await readUpload(request, options.maxBytes)
  if ('error' in upload) {
    const tooLarge = upload.error === 'too-large'
    return reply
      .code(tooLarge ? 413 : 400)
      .send({ error: 'Bad Request', message: tooLarge ? options.tooLarge : upload.error })
  }
  const type = options.detect(upload.data)
  if (!type) return reply.code(400).send({ error: 'Bad Request', message: options.refused })
  const key = `${options.prefix}${Date.now()}-${randomBytes(8).toString('hex')}.${type.ext}`
  await deps.storage.put(key, upload.data, type.mime)
  return { key, name: upload.name, contentType: type.mime, sizeBytes: upload.data.length }
}

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.floor(bytes / (1024 * 1024))}MB` : `${Math.floor(bytes / 1024)}kB`

export function registerLessonUploadRoutes(app: FastifyInstance, deps: HttpDeps) {
  const videoMax = deps.config.lessonVideoMaxBytes ?? DEFAULT_LESSON_VIDEO_MAX_BYTES
  app.post('/api/admin/lesson-video', (request, reply) =>
    handle(deps, request, reply, {
      maxBytes: videoMax,
      tooLarge: `Video size should be less than ${sizeText(videoMax)}`,
      refused: 'Please select an MP4, MOV or WebM video',
      detect: detectVideoType,
      prefix: LESSON_VIDEO_PREFIX,
    }),
  )
  app.post('/api/admin/lesson-attachment', (request, reply) =>
    handle(deps, request, reply, {
      maxBytes: LESSON_ATTACHMENT_MAX_BYTES,
      tooLarge: 'File size should be less than 20MB',
      refused: 'Please select a PDF, ZIP, image or text file',
      detect: detectAttachmentType,
      prefix: LESSON_FILE_PREFIX,
    }),
  )
}
