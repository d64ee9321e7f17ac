// The drip "section open" mail is sent once when two workers sweep at the same moment (issue 33), on PostgreSQL
// (raceIt: PGlite runs one query at a time and cannot race). The race is made certain: another connection holds an
// uncommitted claim row for the learner's section while both sweeps start, so both read the mail as unsent and both
// reach the claim before either can finish; then that row is rolled back and the two claims meet each other.
// The second test runs the same race with the claim written as read-then-insert (no conflict clause) and shows it
// failing: the guard, not luck in timing, is what makes the first test pass.
import { sql } from 'kysely'
import { afterEach, expect } from 'vitest'
import { sweepDripUnlocks } from '../../../src-server/flows/drip-unlocks.ts'
import { advanceClock, resetClock } from '../../../src-server/kernel/clock.ts'
import type { UnlockClaim } from '../../../src-server/learning/drip-mails.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { buyerOfCourse } from '../../support/learning.ts'
import { raceIt } from '../../support/race.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()
const COURSE = 'modern-react-typescript'
const DAY = 86_400
const URL = 'http://localhost:3000'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

afterEach(() => resetClock())

/** The claim without its guard: look for the row, then insert it. */
const readThenInsert: UnlockClaim = async (trx, due) => {
  const sent = await trx
    .selectFrom('drip_unlock_mails')
    .select('user_id')
    .where('user_id', '=', due.userId)
    .where('section_id', '=', due.sectionId)
    .executeTakeFirst()
  if (sent) return false
  await trx
    .insertInto('drip_unlock_mails')
    .values({ user_id: due.userId, section_id: due.sectionId, unlocked_at: due.unlockedAt })
    .execute()
  return true
}

/** A learner whose 3-day dripped section has opened (the clock moved 4 days), not yet mailed. */
async function openedSection() {
  const lesson = await site.db
    .selectFrom('lessons')
    .select(['section_id'])
    .where('course_id', '=', COURSE)
    .where('is_preview', '=', false)
    .where('kind', '=', 'video')
    .executeTakeFirstOrThrow()
  const editor = await callerAs(site.db, await createUser(site.db, { role: 'editor' }))
  await editor.drip.setSection({ courseId: COURSE, sectionId: lesson.section_id, afterDays: 3, opensAt: null })
  const { user } = await buyerOfCourse(site.db, COURSE)
  await advanceClock(4 * DAY)
  return { user, sectionId: lesson.section_id }
}

/** Runs two sweeps while another transaction holds the learner's claim row uncommitted, then rolls it back. */
async function raceTwoSweeps(userId: string, sectionId: string, claim?: UnlockClaim) {
  let racers: Promise<PromiseSettledResult<number>[]> | undefined
  const rollback = new Error('rollback')
  await site.db
    .transaction()
    .execute(async (trx) => {
      await trx
        .insertInto('drip_unlock_mails')
        .values({ user_id: userId, section_id: sectionId, unlocked_at: new Date(0) })
        .execute()
      racers = Promise.allSettled([
        sweepDripUnlocks(site.db, URL, undefined, claim),
        sweepDripUnlocks(site.db, URL, undefined, claim),
      ])
      const deadline = Date.now() + 20_000
      let settled = false
      void racers.then(() => (settled = true))
      for (;;) {
        await sql`select pg_stat_clear_snapshot()`.execute(trx)
        const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(trx)
        if ((rows[0]?.waiting ?? 0) >= 2 || settled || Date.now() > deadline) break
        await sleep(20)
      }
      throw rollback
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error
    })
  return racers!
}

const mailsTo = (email: string) =>
  site.db
    .selectFrom('mail_outbox')
    .select('id')
    .where('kind', '=', 'drip_unlocked')
    .where('to_address', '=', email)
    .execute()

raceIt('two workers sweeping at once send the learner one "section open" mail', async () => {
  const { user, sectionId } = await openedSection()
  const results = await raceTwoSweeps(user.id, sectionId)
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled'])
  expect(await mailsTo(user.email)).toHaveLength(1)
  expect(await sweepDripUnlocks(site.db, URL)).toBe(0)
})

raceIt('with a read-then-insert claim instead, the same race fails (a worker errors or mails twice)', async () => {
  const { user, sectionId } = await openedSection()
  const results = await raceTwoSweeps(user.id, sectionId, readThenInsert)
  const mails = (await mailsTo(user.email)).length
  const guardedOutcome = results.every((r) => r.status === 'fulfilled') && mails === 1
  expect(guardedOutcome).toBe(false)
  const rejected = results.find((r) => r.status === 'rejected')
  expect(String(rejected?.reason)).toMatch(/duplicate key/)
})
