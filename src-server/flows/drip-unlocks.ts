// The drip sweep (an hourly job, jobs/registry.ts 'learning.drip-unlocks'): every learner holding a course whose
// scheduled section has opened for them since the schedule was set gets one "section open" mail
// (learning/drip-mails.ts claims it). It reads the clock, so a moved test clock opens sections and sends their mails.
// Unlocks are not stored ahead: a changed schedule changes what the next sweep finds. Premium members see dripped
// sections open on the same rule but are not mailed for every included course.
import { sql } from 'kysely'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { claimUnlockMail, type DueUnlock, sendUnlockMail, type UnlockClaim } from '../learning/drip-mails.ts'
import { courseSiteUrls } from './school-domain.ts'

const BATCH = 500

/** The learners and sections that opened by `now` and were not mailed (at most BATCH). */
function dueUnlocks(db: DB, now: Date) {
  const opens = sql<Date>`greatest(h.began + d.after_days * interval '1 day', d.opens_at)`
  return (
    db
      .with('h', (qb) =>
        qb
          .selectFrom('access_grants as g')
          .select(['g.user_id', 'g.course_id'])
          .select((eb) => eb.fn.min('g.starts_at').as('began'))
          .where('g.kind', '=', 'course')
          .where('g.revoked_at', 'is', null)
          .where('g.starts_at', '<=', now)
          .where((eb) => eb.or([eb('g.ends_at', 'is', null), eb('g.ends_at', '>', now)]))
          .where('g.course_id', 'in', (eb) => eb.selectFrom('section_drips').select('course_id'))
          .groupBy(['g.user_id', 'g.course_id']),
      )
      .selectFrom('section_drips as d')
      .innerJoin('h', 'h.course_id', 'd.course_id')
      .innerJoin('users as u', 'u.id', 'h.user_id')
      .innerJoin('courses as c', 'c.id', 'd.course_id')
      .innerJoin('course_sections as s', 's.id', 'd.section_id')
      .leftJoin('drip_unlock_mails as m', (join) =>
        join.onRef('m.user_id', '=', 'h.user_id').onRef('m.section_id', '=', 'd.section_id'),
      )
      .select([
        'h.user_id as userId',
        'u.email',
        'u.first_name as firstName',
        'd.course_id as courseId',
        'c.title as courseTitle',
        'd.section_id as sectionId',
        's.title as sectionTitle',
      ])
      .select(opens.as('unlockedAt'))
      .where('m.user_id', 'is', null)
      .where(opens, '<=', now)
      // Opened for them after the schedule existed: a section already open when it was scheduled sends nothing.
      .where(opens, '>', sql<Date>`d.created_at`)
      .limit(BATCH)
      .execute()
  )
}

/** Sends every due unlock mail once; the number sent. `claim` is replaced only by the race test's unguarded one. */
export async function sweepDripUnlocks(
  db: DB,
  publicUrl: string,
  now = clock.now(),
  claim: UnlockClaim = claimUnlockMail,
): Promise<number> {
  let sent = 0
  // Each course's mail links to its school's own domain when it has a verified one (decision 0063).
  const siteUrlOf = courseSiteUrls(db, publicUrl)
  for (;;) {
    const due = await dueUnlocks(db, now)
    for (const row of due) {
      const unlock: DueUnlock = { ...row, unlockedAt: new Date(row.unlockedAt) }
      const siteUrl = await siteUrlOf(unlock.courseId)
      if (await db.transaction().execute((trx) => sendUnlockMail(trx, unlock, siteUrl, claim))) sent++
    }
    if (due.length < BATCH) return sent
  }
}
