// Registrations at the last seats take turns (issue 34): register locks the session's row (FOR UPDATE) before it
// counts the seats taken, so 3 members registering at once for the last seat give 1 seat and 2 waitlist places (3 racers:
// the test pool has 5 connections, one holds the row, one watches the waiters). Without the lock every racer counts
// the seats as they were and all 3 are seated (docs/concurrency-proofs.md). PostgreSQL only.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { registerForSession, scheduleSession } from '../../../src-server/flows/live-sessions.ts'
import { now } from '../../../src-server/kernel/clock.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { premiumMember } from '../../support/learning.ts'
import { raceIt, whileHeld } from '../../support/race.ts'

let database: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.close()
})

/** A Premium session in five days with this many seats, scheduled by an editor. */
async function sessionFor(capacity: number) {
  const db = database.db
  const editor = await createUser(db, { role: 'editor' })
  const day = new Date(now().getTime() + 5 * 86_400_000).toISOString().slice(0, 10)
  const { id } = await scheduleSession(
    db,
    { id: editor.id, role: 'editor', staff: true },
    {
      title: 'Premium Q&A',
      description: '',
      localStart: `${day}T18:00`,
      timeZone: 'UTC',
      durationMinutes: 60,
      capacity,
      joinUrl: 'https://meet.example.com/race',
    },
  )
  return id
}

describe('registering at capacity', () => {
  raceIt('3 members registering at once for the last seat: 1 seated, 2 waitlisted', async () => {
    const db = database.db
    const id = await sessionFor(1)
    const members = await Promise.all(Array.from({ length: 3 }, () => premiumMember(db)))
    const results = await whileHeld(
      db,
      (trx) => sql`select 1 from live_sessions where id = ${id} for update`.execute(trx),
      () =>
        Promise.allSettled(
          members.map(({ user }) =>
            registerForSession(db, { id: user.id, role: 'customer', staff: true }, id, 'http://localhost:3000'),
          ),
        ),
      { waiters: 3 },
    )
    expect(results.filter((r) => r.status === 'rejected')).toEqual([])
    const rows = await db.selectFrom('live_registrations').select(['status']).where('session_id', '=', id).execute()
    expect(rows.filter((r) => r.status === 'registered')).toHaveLength(1)
    expect(rows.filter((r) => r.status === 'waitlisted')).toHaveLength(2)
  })
  raceIt('one member registering twice at once gets one seat and one invitation', async () => {
    const db = database.db
    const id = await sessionFor(5)
    const { user } = await premiumMember(db)
    const actor = { id: user.id, role: 'customer' as const, staff: true }
    const results = await whileHeld(
      db,
      (trx) => sql`select 1 from live_sessions where id = ${id} for update`.execute(trx),
      () => Promise.allSettled([1, 2].map(() => registerForSession(db, actor, id, 'http://localhost:3000'))),
      { waiters: 2 },
    )
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled'])
    const invitations = await db
      .selectFrom('mail_outbox')
      .select('kind')
      .where('to_address', '=', user.email)
      .where('kind', '=', 'live_invitation')
      .execute()
    expect(invitations).toHaveLength(1)
  })
})
