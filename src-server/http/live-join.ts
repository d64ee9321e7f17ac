// GET /live/<id>/join (issue 34): the only way to a live session's join link. A seat holder, from 15 minutes before
// the start to its end, is redirected to the video service and the opening is recorded (attendance); anyone else is
// sent back to /live with the reason. A signed-out visitor signs in first. Never cached.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { joinSession, LIVE_MESSAGES } from '../flows/live-sessions.ts'
import type { HttpDeps } from '../kernel/config.ts'

const REASONS: Record<string, string> = {
  [LIVE_MESSAGES.notFound]: 'not-found',
  [LIVE_MESSAGES.ended]: 'ended',
  [LIVE_MESSAGES.noSeat]: 'no-seat',
  [LIVE_MESSAGES.notYet]: 'not-yet',
  [LIVE_MESSAGES.noAccess]: 'no-access',
}

export function registerLiveJoinRoutes(app: FastifyInstance, deps: HttpDeps) {
  app.get<{ Params: { id: string } }>('/live/:id/join', async (request, reply) => {
    reply.header('cache-control', 'private, no-store').header('referrer-policy', 'no-referrer')
    const id = z.uuid().safeParse(request.params.id)
    const { user } = await deps.resolveSession(request, reply)
    if (!user) return reply.redirect(`/login?redirect=${encodeURIComponent(request.url)}`, 303)
    if (!id.success) return reply.redirect('/live?join=not-found', 303)
    const needsFactor =
      deps.config.staffTwoFactor === 'required' &&
      (user.role === 'admin' || user.role === 'super_admin') &&
      !user.twoFactorEnabled
    const outcome = await joinSession(deps.db, { id: user.id, role: user.role, staff: !needsFactor }, id.data)
    if (outcome.url === null) return reply.redirect(`/live?join=${REASONS[outcome.refused] ?? 'not-found'}`, 303)
    return reply.redirect(outcome.url, 303)
  })
}
