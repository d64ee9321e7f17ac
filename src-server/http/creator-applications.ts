// Plain routes of applying to teach and of a creator's profile photo:
//   POST /api/creator-applications/attachment       the applicant's CV (PDF, up to 10 MB), judged by its bytes while
//                                                   it streams to a staging file (as lesson uploads), stored under
//                                                   the applicant's private prefix; the answer's key goes with the
//                                                   application (creators/applications.ts checks it is theirs). A
//                                                   sample video goes over tus instead, as lesson videos do
//                                                   (http/tus-uploads.ts, purpose "application", up to 500 MB)
//   GET  /api/creator-applications/:id/attachment   the stored file, for staff (viewer and up) or the applicant only
//   POST /api/creator/profile-photo                 a creator's profile photo (the avatar rules: an image, 2 MB)
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { AVATAR_MAX_BYTES } from '../../src-shared/constants.ts'
import { hasRole } from '../../src-shared/roles.ts'
import { APPLICATION_PDF_MAX_BYTES } from '../../src-shared/schemas/creators.ts'
import { requireUser, withStaffReach } from '../auth/require-user.ts'
import { applicationFileFor, applicationFilePrefix } from '../creators/applications.ts'
import { replaceProfilePhoto } from '../creators/profiles.ts'
import { findCreator } from '../creators/repository.ts'
import { uploadFileName } from '../creators/upload-rows.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { RETRY_AFTER_SECONDS } from '../kernel/db-unavailable.ts'
import { DomainError } from '../kernel/errors.ts'
import { UPLOAD_ROUTE_LIMIT } from '../security/rate-limit.ts'
import type { MediaType } from '../storage/media.ts'
import { discard, stageUpload } from '../storage/staged-upload.ts'
import { readImageUpload, sendUploadRefusal } from '../storage/upload.ts'
import { sendPrivateFile } from './private-files.ts'

export const ATTACHMENT_REFUSED = 'Please attach your CV as a PDF (a sample video is uploaded on its own)'
export const ATTACHMENT_NOT_STORED = 'Your CV could not be saved just now. Please try again in a moment.'
const PDF: MediaType = { mime: 'application/pdf', ext: 'pdf' }

function detectPdf(bytes: Uint8Array): MediaType | null {
  return [0x25, 0x50, 0x44, 0x46, 0x2d].every((b, i) => bytes[i] === b) ? PDF : null
}

const sizeText = (bytes: number) => `${Math.floor(bytes / (1024 * 1024))}MB`
const idParams = z.object({ id: z.uuid() })

export function registerCreatorApplicationRoutes(app: FastifyInstance, deps: HttpDeps) {
  const maxBytes = APPLICATION_PDF_MAX_BYTES

  app.post('/api/creator-applications/attachment', { config: UPLOAD_ROUTE_LIMIT }, async (request, reply) => {
    const user = await requireUser(deps, request, reply)
    if (!user) return reply
    const refuse = (status: number, message: string) => reply.code(status).send({ error: 'Bad Request', message })
    const tooLarge = `The file is too large: a PDF can be up to ${sizeText(APPLICATION_PDF_MAX_BYTES)}`
    const part = await request.file({ limits: { fileSize: maxBytes + 1, files: 1 } }).catch(() => undefined)
    if (!part) return refuse(400, 'Please choose a file')
    const staged = await stageUpload(part.file, {
      dir: deps.storage.stagingDir,
      maxBytes,
      detect: detectPdf,
    })
    if ('refusal' in staged) {
      part.file.resume()
      return staged.refusal === 'too-large' ? refuse(413, tooLarge) : refuse(400, ATTACHMENT_REFUSED)
    }
    const { file, type } = staged
    try {
      if (part.file.truncated || file.size > maxBytes) return refuse(413, tooLarge)
      const key = `${applicationFilePrefix(user.id)}${Date.now()}-${randomBytes(8).toString('hex')}.${type.ext}`
      try {
        await deps.storage.putFile(key, file, type.mime)
      } catch (error) {
        // Storage failing (the bucket down or silent): a sentence the form shows, as for an avatar, not "Something went
        // wrong"; the bucket's own words stay in the log.
        request.log.error({ err: error }, 'application attachment not stored')
        return reply
          .code(503)
          .header('retry-after', String(RETRY_AFTER_SECONDS))
          .send({ error: 'Service Unavailable', message: ATTACHMENT_NOT_STORED })
      }
      const name = uploadFileName(part.filename, `attachment.${type.ext}`)
      return { key, name, contentType: type.mime, sizeBytes: file.size }
    } finally {
      await discard(file)
    }
  })

  app.get('/api/creator-applications/:id/attachment', async (request, reply) => {
    const user = await requireUser(deps, request, reply)
    if (!user) return reply
    const params = idParams.safeParse(request.params)
    if (!params.success) throw new DomainError('not_found', 'File not found')
    const file = await applicationFileFor(
      deps.db,
      // Staff read it only with the second factor STAFF_2FA requires (decision 0052).
      { id: user.id, isStaff: hasRole(withStaffReach(deps.config, user).role, 'viewer') },
      params.data.id,
    )
    const stream = await deps.storage.read(file.key)
    const fileName = file.name.replace(/"/g, '')
    return sendPrivateFile(reply, { contentType: file.contentType, fileName, size: file.sizeBytes, stream })
  })

  app.post('/api/creator/profile-photo', { config: UPLOAD_ROUTE_LIMIT }, async (request, reply) => {
    const user = await requireUser(deps, request, reply)
    if (!user) return reply
    if (!(await findCreator(deps.db, user.id))) {
      return reply.code(403).send({ error: 'Forbidden', message: 'Only approved creators can use the studio' })
    }
    let image: Awaited<ReturnType<typeof readImageUpload>>
    try {
      image = await readImageUpload(request, AVATAR_MAX_BYTES, 'Image size should be less than 2MB')
    } catch (error) {
      return sendUploadRefusal(request, reply, error, 'profile photo upload')
    }
    const imageUrl = await replaceProfilePhoto(deps.db, deps.storage, user.id, image)
    return { imageUrl, message: 'Photo updated' }
  })
}
