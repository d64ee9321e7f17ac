// Reads one uploaded image from a multipart request: checked by content (magic bytes), never by name or
// declared type, and refused past the size limit without buffering more than that.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { detectImageType, type ImageType } from './image.ts'

export class UploadError extends Error {
  constructor(
    readonly reason: 'missing' | 'not-image' | 'too-large',
    message: string,
  ) {
    super(message)
  }
}

export const NOT_AN_IMAGE = 'Please select an image file'

export async function readImageUpload(
  request: FastifyRequest,
  maxBytes: number,
  tooLargeMessage: string,
): Promise<{ data: Buffer; type: ImageType }> {
  const file = await request.file({ limits: { fileSize: maxBytes, files: 1 } })
  if (!file) throw new UploadError('missing', NOT_AN_IMAGE)
  const data = await file.toBuffer().catch((error: unknown) => {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new UploadError('too-large', tooLargeMessage)
    throw error
  })
  if (file.file.truncated) throw new UploadError('too-large', tooLargeMessage)
  const type = detectImageType(data)
  if (!type) throw new UploadError('not-image', NOT_AN_IMAGE)
  return { data, type }
}

/**
 * The one answer to an upload that cannot be used: a refused image (413 past the size limit, else 400, with its
 * message), or a body the multipart parser cannot read (no boundary, cut short, not multipart: the client's error,
 * 400 "not an image", logged as a warning).
 */
export function sendUploadRefusal(request: FastifyRequest, reply: FastifyReply, error: unknown, what: string) {
  if (error instanceof UploadError) {
    return reply.code(error.reason === 'too-large' ? 413 : 400).send({ error: 'Bad Request', message: error.message })
  }
  request.log.warn({ err: error }, `${what} could not be read`)
  return reply.code(400).send({ error: 'Bad Request', message: NOT_AN_IMAGE })
}
