// GET /api/documents/invoice/:id.pdf and /api/documents/credit_note/:id.pdf: the PDF download of an invoice or
// credit note, for the buyer it names or staff. Served as an attachment named after the document number.
import type { FastifyInstance } from 'fastify'
import { requireUser, withStaffReach } from '../auth/require-user.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { isDomainError } from '../kernel/errors.ts'
import { isUuid } from '../kernel/uuid.ts'
import { type DocumentKind, readDocument } from '../orders/documents.ts'

export function registerDocumentRoutes(app: FastifyInstance, deps: HttpDeps) {
  app.get<{ Params: { kind: string; file: string } }>('/api/documents/:kind/:file', async (request, reply) => {
    const { kind, file } = request.params
    const id = file.replace(/\.pdf$/, '')
    if ((kind !== 'invoice' && kind !== 'credit_note') || !isUuid(id) || !file.endsWith('.pdf')) {
      return reply.code(404).send({ error: 'Not Found', message: 'Document not found' })
    }
    const user = await requireUser(deps, request, reply)
    if (!user) return reply
    try {
      // Staff read anyone's document only with the second factor STAFF_2FA requires (decision 0052).
      const document = await readDocument(deps.db, withStaffReach(deps.config, user), kind as DocumentKind, id)
      // Loaded on the first download: the PDF library is a good part of the server's start-up otherwise.
      const { renderDocumentPdf } = await import('../orders/document-pdf.ts')
      const pdf = await renderDocumentPdf(document)
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${document.number}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf)
    } catch (error) {
      if (isDomainError(error) && error.kind === 'not_found') {
        return reply.code(404).send({ error: 'Not Found', message: error.message })
      }
      throw error
    }
  })
}
