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

/** The one answer to a refused upload: 413 past the size limit, else 400, with the message the form shows. */
export function sendUploadError(reply: FastifyReply, error: UploadError) {
  return reply.code(error.reason === 'too-large' ? 413 : 400).send({ error: 'Bad Request', message: error.message })
}
