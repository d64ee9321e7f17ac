// Lesson files uploaded by editors, checked by content and size, stored under private/lessons/ (never public):
//   POST /api/admin/lesson-video       a video (MP4, MOV or WebM), up to LESSON_VIDEO_MAX_BYTES (200 MB); its
//                                      length is read from the file (storage/video-duration.ts)
//   POST /api/admin/lesson-attachment  a downloadable file (PDF, ZIP, image or text), up to 20 MB
// The bytes are streamed to a staging file (size counted and content judged while they arrive, never buffered in
// memory), then stored (a rename on local disk, a streamed PUT to S3). Each answers the storage key the lesson
// editor then saves on the lesson (catalog/lesson-editing.ts). A video is also recorded as a stored upload whose HLS
// renditions are wanted, so the transcode relay and job make them as they do for creators' (decision 0064).
import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  DEFAULT_LESSON_VIDEO_MAX_BYTES,
  LESSON_ATTACHMENT_MAX_BYTES,
  LESSON_UPLOAD_MESSAGES,
} from '../../src-shared/uploads.ts'
import { requireUser } from '../auth/require-user.ts'
import { insertStaffUpload, uploadFileName } from '../creators/upload-rows.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { LESSON_FILE_PREFIX, LESSON_VIDEO_PREFIX } from '../storage/keys.ts'
import { detectAttachmentType, detectVideoType, type MediaType } from '../storage/media.ts'
import { discard, readFileAt, stageUpload } from '../storage/staged-upload.ts'
import { readVideoDuration } from '../storage/video-duration.ts'

export const VIDEO_LENGTH_UNKNOWN = 'The video does not say how long it is: please export it again (MP4 or WebM)'

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
    /** Videos: their length is read from the file, and a file that does not say is refused. */
    probeDuration?: boolean
    /** Videos: recorded as a stored upload whose HLS renditions the transcode job makes (decision 0064). */
    transcode?: boolean
  },
) {
  const user = await requireUser(deps, request, reply, 'editor')
  if (!user) return reply
  const refuse = (status: number, message: string) => reply.code(status).send({ error: 'Bad Request', message })
  // The parser stops one byte past the limit (it would end a file of exactly the limit, silently truncated, at the
  // limit); stageUpload counts the bytes and refuses that byte.
  const part = await request.file({ limits: { fileSize: options.maxBytes + 1, files: 1 } }).catch(() => undefined)
  if (!part) return refuse(400, 'Please choose a file')
  const staged = await stageUpload(part.file, {
    dir: deps.storage.stagingDir,
    maxBytes: options.maxBytes,
    detect: options.detect,
  })
  if (!('refusal' in staged) && part.file.truncated) {
    await discard(staged.file)
    return refuse(413, options.tooLarge)
  }
  if ('refusal' in staged) {
    // Let the rest of a refused body pass (up to the parser's limit) so the answer reaches the browser.
    part.file.resume()
    return staged.refusal === 'too-large' ? refuse(413, options.tooLarge) : refuse(400, options.refused)
  }
  const { file, type } = staged
  try {
    let durationSeconds: number | null = null
    if (options.probeDuration) {
      const reader = await readFileAt(file.path)
      durationSeconds = await readVideoDuration(reader.read, file.size).finally(reader.close)
      if (durationSeconds === null) return refuse(400, VIDEO_LENGTH_UNKNOWN)
    }
    const key = `${options.prefix}${Date.now()}-${randomBytes(8).toString('hex')}.${type.ext}`
    await deps.storage.putFile(key, file, type.mime)
    const name = uploadFileName(part.filename, 'file')
    if (options.transcode) {
      // Its renditions are wanted, as for a creator's upload (the relay queues the transcode job).
      await insertStaffUpload(deps.db, {
        userId: user.id,
        storageKey: key,
        sizeBytes: file.size,
        durationSeconds,
        contentType: type.mime,
        fileName: name,
      })
    }
    return {
      key,
      name,
      contentType: type.mime,
      sizeBytes: file.size,
      ...(options.probeDuration ? { durationSeconds: Math.round(durationSeconds ?? 0) } : {}),
    }
  } finally {
    await discard(file)
  }
}

export function registerLessonUploadRoutes(app: FastifyInstance, deps: HttpDeps) {
  const videoMax = deps.config.lessonVideoMaxBytes ?? DEFAULT_LESSON_VIDEO_MAX_BYTES
  app.post('/api/admin/lesson-video', (request, reply) =>
    handle(deps, request, reply, {
      maxBytes: videoMax,
      tooLarge: LESSON_UPLOAD_MESSAGES.videoTooLarge(videoMax),
      refused: 'Please select an MP4, MOV or WebM video',
      detect: detectVideoType,
      prefix: LESSON_VIDEO_PREFIX,
      probeDuration: true,
      transcode: true,
    }),
  )
  app.post('/api/admin/lesson-attachment', (request, reply) =>
    handle(deps, request, reply, {
      maxBytes: LESSON_ATTACHMENT_MAX_BYTES,
      tooLarge: LESSON_UPLOAD_MESSAGES.fileTooLarge,
      refused: 'Please select a PDF, ZIP, image or text file',
      detect: detectAttachmentType,
      prefix: LESSON_FILE_PREFIX,
    }),
  )
}
