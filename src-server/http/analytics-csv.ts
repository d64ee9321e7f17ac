// CSV downloads of the analytics pages: GET /api/studio/analytics.csv (a creator's own courses, by their plan) and
// GET /api/admin/analytics.csv (staff, viewer and up). The range comes from the query string, checked like the pages'.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { analyticsRangeSchema } from '../../src-shared/schemas/analytics.ts'
import { requireUser } from '../auth/require-user.ts'
import { findCreator } from '../creators/repository.ts'
import { creatorAnalytics, shopAnalytics } from '../flows/analytics.ts'
import { analyticsCsv } from '../flows/analytics-csv.ts'
import type { HttpDeps } from '../kernel/config.ts'

function sendCsv(reply: FastifyReply, name: string, body: string) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'private, no-store')
    .send(body)
}

export function registerAnalyticsCsvRoutes(app: FastifyInstance, deps: HttpDeps) {
  app.get('/api/studio/analytics.csv', async (request, reply) => {
    const range = analyticsRangeSchema.safeParse(request.query)
    if (!range.success) return reply.code(400).send({ error: 'Bad Request', message: 'Choose a valid date range' })
    const user = await requireUser(deps, request, reply)
    if (!user) return reply
    if (!(await findCreator(deps.db, user.id))) {
      return reply.code(403).send({ error: 'Forbidden', message: 'Only approved creators can use the studio' })
    }
    // The signed-in creator's own courses only: no course or creator id is read from the address.
    const report = await creatorAnalytics(deps.db, user.id, range.data)
    return sendCsv(reply, `analytics-${range.data.from}-${range.data.to}.csv`, analyticsCsv(report))
  })

  app.get('/api/admin/analytics.csv', async (request, reply) => {
    const range = analyticsRangeSchema.safeParse(request.query)
    if (!range.success) return reply.code(400).send({ error: 'Bad Request', message: 'Choose a valid date range' })
    const user = await requireUser(deps, request, reply, 'viewer')
    if (!user) return reply
    const report = await shopAnalytics(deps.db, range.data)
    return sendCsv(reply, `shop-analytics-${range.data.from}-${range.data.to}.csv`, analyticsCsv(report, report.staff))
  })
}
