// TEST_CLOCK=on only (server.ts registers it then, and never otherwise): the e2e tests move the business clock
// forward to see a refund hold end, a month's payouts run, a drip section open or a cool-off pass.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { advanceClock, now } from '../kernel/clock.ts'

// At most a year per call: enough for any hold or cool-off, and a typo cannot throw the clock to the year 3000.
const advanceBody = z
  .object({
    advanceSeconds: z
      .number()
      .int()
      .min(0)
      .max(366 * 24 * 3600),
  })
  .strict()

export function registerTestClockRoutes(app: FastifyInstance) {
  app.get('/api/test/clock', async () => ({ now: now().toISOString() }))
  app.post('/api/test/clock', async (request, reply) => {
    const parsed = advanceBody.safeParse(request.body)
    if (!parsed.success) {
      return reply
        .code(400)
        .send({ error: 'Bad Request', message: 'advanceSeconds must be a whole number of seconds from 0 to 366 days' })
    }
    const { from, to, ran } = await advanceClock(parsed.data.advanceSeconds)
    return { from: from.toISOString(), now: to.toISOString(), ran }
  })
}
