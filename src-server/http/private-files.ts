// The plain routes' private files: one multipart file read into memory under a size limit, and a file sent as a
// download that no cache keeps and no browser renders in place.
import type { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { DomainError } from '../kernel/errors.ts'

/**
 * The request's one file, read whole. Past `maxBytes` the reply is a 413 with `tooLarge` (and the result null);
 * no file, or a body the parser cannot read (logged as a warning naming `what`), is 'invalid' with `notAllowed`.
 */
export async function readOneFile(
  request: FastifyRequest,
  reply: FastifyReply,
  limits: { maxBytes: number; tooLarge: string; notAllowed: string; what: string },
): Promise<{ fileName: string; data: Buffer } | null> {
  const tooLarge = () => {
    reply.code(413).send({ error: 'Payload Too Large', message: limits.tooLarge })
    return null
  }
  let file: Awaited<ReturnType<typeof request.file>>
  let data: Buffer
  try {
    file = await request.file({ limits: { fileSize: limits.maxBytes, files: 1 } })
    if (!file) throw new DomainError('invalid', limits.notAllowed)
    data = await file.toBuffer()
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge()
    if (error instanceof DomainError) throw error
    request.log.warn({ err: error }, `${limits.what} could not be read`)
    throw new DomainError('invalid', limits.notAllowed)
  }
  if (file.file.truncated) return tooLarge()
  return { fileName: file.filename, data }
}

/** Sends a stored file as an attachment: private, never cached, its type not sniffed. */
export function sendPrivateFile(
  reply: FastifyReply,
  file: { contentType: string; fileName: string; size: number; stream: Readable },
) {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-length', String(file.size))
    .send(file.stream)
}
