// The retention job (issue 28, decision 0053): with the clock moved, each kind of record past its documented period
// (src-shared/retention.ts, the privacy page's list) is purged and anything younger, or still pending, is kept.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSession } from '../../../src-server/auth/session.ts'
import { issueToken } from '../../../src-server/auth/tokens.ts'
import { runRetention } from '../../../src-server/flows/retention.ts'
import { advanceClock, now, resetClock } from '../../../src-server/kernel/clock.ts'
import { RETENTION } from '../../../src-shared/retention.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'

let database: TestDatabase
const db = () => database.db
beforeAll(async () => {
  database = await createTestDatabase()
}, 180_000)
afterAll(() => database.close())
afterEach(() => resetClock())

const DAY = 24 * 3600
const daysAgo = (days: number) => new Date(now().getTime() - days * DAY * 1000)

describe('retention', () => {
  it('purges each kind past its period and keeps the rest', async () => {
    const person = await createUser(db())
    const expired = await createSession(db(), person.id, true, daysAgo(40))
    const live = await createSession(db(), person.id, true, now())
    await issueToken(db(), person.id, 'reset_password', daysAgo(RETENTION.tokens.days + 1))
    await db()
      .insertInto('mail_outbox')
      .values([
        {
          kind: 'old',
          to_address: person.email,
          subject: 'old',
          text_body: 'old body',
          status: 'sent',
          sent_at: daysAgo(91),
        },
        {
          kind: 'recent',
          to_address: person.email,
          subject: 'new',
          text_body: 'new',
          status: 'sent',
          sent_at: daysAgo(89),
        },
        {
          kind: 'stuck',
          to_address: person.email,
          subject: 'p',
          text_body: 'p',
          status: 'pending',
          created_at: daysAgo(200),
        },
      ])
      .execute()
    await db()
      .insertInto('contact_messages')
      .values([
        {
          name: 'Old',
          email: 'old@example.test',
          subject: 's',
          message: 'm',
          created_at: daysAgo(731),
          reply_due_at: daysAgo(729),
        },
        {
          name: 'New',
          email: 'new@example.test',
          subject: 's',
          message: 'm',
          created_at: daysAgo(10),
          reply_due_at: daysAgo(8),
        },
      ])
      .execute()

    const counts = await runRetention(db(), now())
    expect(counts).toMatchObject({ sessions: 1, tokens: 1, mailBodies: 1, contactMessages: 1 })
    const sessions = await db().selectFrom('sessions').select('id').where('user_id', '=', person.id).execute()
    expect(sessions.map((row) => row.id)).toEqual([live.session.id])
    expect(sessions.map((row) => row.id)).not.toContain(expired.session.id)
    const kinds = await db().selectFrom('mail_outbox').select('kind').where('to_address', '=', person.email).execute()
    expect(kinds.map((row) => row.kind).sort()).toEqual(['recent', 'stuck'])
    const contacts = await db().selectFrom('contact_messages').select('name').execute()
    expect(contacts.map((row) => row.name)).toEqual(['New'])

    // The clock moves on: the recent mail's 90 days pass too; a rerun on the same day purges nothing more.
    await advanceClock(2 * DAY)
    expect((await runRetention(db(), now())).mailBodies).toBe(1)
    expect(Object.values(await runRetention(db(), now())).every((count) => count === 0)).toBe(true)
  })
})
