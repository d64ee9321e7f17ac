// /api/mail/unsubscribe?token=…: the List-Unsubscribe address of cart reminders (issue 32) and of course news mails
// (decision 0156). POST is RFC 8058's one-click: the mail client posts `List-Unsubscribe=One-Click` with no session, no
// cookie and no Origin, and the token alone (200 random bits, stored hashed) says whose mails stop — no page in
// between, and posting again changes nothing. GET is a person following the link: it goes to the page with the
// button (/cart/reminders/unsubscribe or /mail/unsubscribe), which asks the same flow. The CSRF hook exempts this path
// (server.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { reminderUnsubscribeInput } from '../../src-shared/schemas/cart-reminders.ts'
import { CART_REMINDER_MESSAGES } from '../flows/checkout-recovery.ts'
import { unsubscribeByLink, unsubscribePageOf } from '../flows/mail-unsubscribe.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { isDomainError } from '../kernel/errors.ts'
import { ONE_CLICK_UNSUBSCRIBE_PATH } from '../mail/unsubscribe.ts'
import { UNSUBSCRIBE_ROUTE_LIMIT } from '../security/rate-limit.ts'

const tokenOf = (request: FastifyRequest) =>
  reminderUnsubscribeInput.safeParse({ token: (request.query as { token?: unknown }).token }).data?.token

export async function registerMailUnsubscribeRoutes(app: FastifyInstance, deps: Pick<HttpDeps, 'db'>) {
  await app.register(async (scope) => {
    // Mail clients post a tiny form (or nothing); the body says nothing the token does not, so it is read and dropped.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null))

    scope.get(ONE_CLICK_UNSUBSCRIBE_PATH, { config: UNSUBSCRIBE_ROUTE_LIMIT }, async (request, reply) => {
      const token = tokenOf(request)
      const page = token ? await unsubscribePageOf(deps.db, token) : '/cart/reminders/unsubscribe'
      return reply.header('cache-control', 'no-store').redirect(page, 303)
    })

    scope.post(ONE_CLICK_UNSUBSCRIBE_PATH, { config: UNSUBSCRIBE_ROUTE_LIMIT }, async (request, reply) => {
      reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8')
      const token = tokenOf(request)
      if (!token) return reply.code(400).send(CART_REMINDER_MESSAGES.badUnsubscribeLink)
      try {
        const { message } = await unsubscribeByLink(deps.db, token)
        return reply.code(200).send(message)
      } catch (error) {
        if (isDomainError(error) && error.kind === 'not_found') return reply.code(404).send(error.message)
        throw error
      }
    })
  })
}
