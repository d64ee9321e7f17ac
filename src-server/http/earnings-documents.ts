// Plain downloads of creators' money: GET /api/studio/statements/<YYYY-MM>.csv|.pdf (a creator's own statement of a
// month, every entry of theirs in it) and GET /api/admin/finance/balances.csv (staff, admin and up: every creator's
// balances). Attachments, never cached.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { requireUser } from '../auth/require-user.ts'
import { findCreator } from '../creators/repository.ts'
import { renderStatementPdf } from '../earnings/statement-pdf.ts'
import { creatorStatement, statementCsv, statementHolder } from '../flows/creator-earnings-view.ts'
import { creatorBalancesCsv } from '../flows/creator-finance.ts'
import { actingFor } from '../flows/school-team.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { isDomainError } from '../kernel/errors.ts'
import { isUuid } from '../kernel/uuid.ts'

const STATEMENT = /^(\d{4}-(?:0[1-9]|1[0-2]))\.(csv|pdf)$/

const notFound = (reply: FastifyReply, message: string) => reply.code(404).send({ error: 'Not Found', message })

export function registerEarningsDocumentRoutes(app: FastifyInstance, deps: HttpDeps) {
  app.get<{ Params: { file: string }; Querystring: { school?: string } }>(
    '/api/studio/statements/:file',
    async (request, reply) => {
      const match = STATEMENT.exec(request.params.file)
      if (!match) return notFound(reply, 'No statement for that month')
      const [, month, format] = match as unknown as [string, string, 'csv' | 'pdf']
      const user = await requireUser(deps, request, reply)
      if (!user) return reply
      const school = request.query.school
      let ledgerOwner = user.id
      if (school !== undefined) {
        // A school's finance member (or owner) reads the school owner's statement (decision 0057).
        if (!isUuid(school)) return notFound(reply, 'School not found')
        try {
          ledgerOwner = (await actingFor(deps.db, user.id, school, 'earnings.view')).ownerId
        } catch (error) {
          if (!isDomainError(error)) throw error
          const status = error.kind === 'forbidden' ? 403 : 404
          return reply.code(status).send({ error: status === 403 ? 'Forbidden' : 'Not Found', message: error.message })
        }
      } else if (!(await findCreator(deps.db, user.id))) {
        return reply.code(403).send({ error: 'Forbidden', message: 'Only approved creators can use the studio' })
      }
      // Only the caller's own entries, or their school's: read by the signed-in user's standing, never an id alone.
      const statement = await creatorStatement(deps.db, ledgerOwner, month)
      const filename = `earnings-${month}.${format}`
      reply
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
      if (format === 'csv') return reply.header('content-type', 'text/csv; charset=utf-8').send(statementCsv(statement))
      const holder = await statementHolder(deps.db, ledgerOwner)
      const pdf = await renderStatementPdf({ ...statement, creatorName: holder.name, creatorEmail: holder.email })
      return reply.header('content-type', 'application/pdf').send(pdf)
    },
  )

  app.get('/api/admin/finance/balances.csv', async (request, reply) => {
    const user = await requireUser(deps, request, reply, 'admin')
    if (!user) return reply
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="creator-balances.csv"')
      .header('cache-control', 'private, no-store')
      .send(await creatorBalancesCsv(deps.db))
  })
}
