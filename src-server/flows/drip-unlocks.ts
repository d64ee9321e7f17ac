// The drip sweep (an hourly job, jobs/registry.ts 'learning.drip-unlocks'): every learner holding a course whose
// scheduled section has opened for them since the schedule was set gets one "section open" mail
// (learning/drip-mails.ts claims it). It reads the clock, so a moved test clock opens sections and sends their mails.
// Unlocks are not stored ahead: a changed schedule changes what the next sweep finds. Premium members see dripped
// sections open on the same rule but are not mailed for every included course.
// When a section opens for a learner is the access check's to say (drip-access.ts, dripCountsFrom): a buyer who is
// also a member counts from the earlier hold. A section already open when their own hold of the course began (through
// Premium, or by a date already past) is not news: no mail (decision 0090).
import { sql } from 'kysely'
import { type DripRule, unlockDate } from '../catalog/drip.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { claimUnlockMail, type DueUnlock, sendUnlockMail, type UnlockClaim } from '../learning/drip-mails.ts'
import { dripCountsFrom } from './drip-access.ts'
import { courseSiteUrls } from './school-domain.ts'

const BATCH = 500

type Key = readonly [userId: string, sectionId: string]

/**
 * The holders and sections that may have opened by `now` and were not mailed (at most BATCH, after `after`): a wide
 * net in SQL (counted from the earlier of their course and Premium holds, which is as early as the access rule can
 * open it), which `opensFor` then decides by the access rule itself.
 */
function candidates(db: DB, now: Date, after: Key | null) {
  const fromHold = (began: string) =>
    sql<Date>`greatest(${sql.ref(began)} + d.after_days * interval '1 day', d.opens_at)`
  const earliest = fromHold('h.earliest')
  const byCourse = fromHold('h.began')
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
      .with('p', (qb) =>
        qb
          .selectFrom('access_grants as g')
          .select('g.user_id')
          .select((eb) => eb.fn.min('g.starts_at').as('began'))
          .where('g.kind', '=', 'premium')
          .where('g.revoked_at', 'is', null)
          .where('g.starts_at', '<=', now)
          .where((eb) => eb.or([eb('g.ends_at', 'is', null), eb('g.ends_at', '>', now)]))
          .groupBy('g.user_id'),
      )
      .with('hp', (qb) =>
        qb
          .selectFrom('h')
          .leftJoin('p', 'p.user_id', 'h.user_id')
          .select(['h.user_id', 'h.course_id', 'h.began'])
          .select(sql<Date>`least(h.began, coalesce(p.began, h.began))`.as('earliest')),
      )
      .selectFrom('section_drips as d')
      .innerJoin('hp as h', 'h.course_id', 'd.course_id')
      .innerJoin('users as u', 'u.id', 'h.user_id')
      .innerJoin('courses as c', 'c.id', 'd.course_id')
      .innerJoin('course_sections as s', 's.id', 'd.section_id')
      .leftJoin('drip_unlock_mails as m', (join) =>
        join.onRef('m.user_id', '=', 'h.user_id').onRef('m.section_id', '=', 'd.section_id'),
      )
      .leftJoin('course_news_mutes as muted', (join) =>
        join.onRef('muted.user_id', '=', 'h.user_id').onRef('muted.course_id', '=', 'd.course_id'),
      )
      .select([
        'h.user_id as userId',
        'h.began as heldSince',
        'u.email',
        'u.first_name as firstName',
        sql<boolean>`u.course_update_mails and muted.user_id is null`.as('wantsMail'),
        'd.course_id as courseId',
        'c.title as courseTitle',
        'c.status as courseStatus',
        'c.included_in_premium as includedInPremium',
        'd.section_id as sectionId',
        's.title as sectionTitle',
        'd.after_days as afterDays',
        'd.opens_at as opensAt',
        'd.created_at as scheduledAt',
      ])
      .where('m.user_id', 'is', null)
      .where(earliest, '<=', now)
      // Counted from their own hold alone it opens latest: open by then at the schedule or at the hold's start, never news.
      .where(byCourse, '>', sql<Date>`d.created_at`)
      .where(byCourse, '>', sql<Date>`h.began`)
      .$if(after !== null, (qb) =>
        qb.where((eb) =>
          eb(eb.refTuple('h.user_id', 'd.section_id'), '>', eb.tuple(after?.[0] ?? '', after?.[1] ?? '')),
        ),
      )
      .orderBy('h.user_id')
      .orderBy('d.section_id')
      .limit(BATCH)
      .execute()
  )
}

type Candidate = Awaited<ReturnType<typeof candidates>>[number]

/** When the section opened for this holder by the access rule, if that is news to mail now; else null. */
async function opensFor(db: DB, row: Candidate, now: Date): Promise<Date | null> {
  const course = { id: row.courseId, status: row.courseStatus, includedInPremium: row.includedInPremium }
  const began = await dripCountsFrom(db, row.userId, course, 'purchase', now)
  const rule: DripRule = { afterDays: row.afterDays, opensAt: row.opensAt ? new Date(row.opensAt) : null }
  const opens = unlockDate(rule, began)
  if (opens > now) return null
  // Opened for them after the schedule existed: a section already open when it was scheduled sends nothing; nor does
  // one already open when their hold of the course began (Premium had opened it, or its date had passed).
  if (opens <= new Date(row.scheduledAt) || opens <= new Date(row.heldSince)) return null
  return opens
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
  let after: Key | null = null
  for (;;) {
    const rows = await candidates(db, now, after)
    for (const row of rows) {
      const unlockedAt = await opensFor(db, row, now)
      if (!unlockedAt) continue
      const { userId, email, firstName, courseId, courseTitle, sectionId, sectionTitle } = row
      const unlock: DueUnlock = { userId, email, firstName, courseId, courseTitle, sectionId, sectionTitle, unlockedAt }
      // Turned off on their account page: claimed unsent, so turning it on again does not mail every past opening.
      if (!row.wantsMail) {
        await claim(db, unlock)
        continue
      }
      const siteUrl = await siteUrlOf(unlock.courseId)
      if (await db.transaction().execute((trx) => sendUnlockMail(trx, unlock, siteUrl, claim))) sent++
    }
    const last = rows.at(-1)
    if (!last || rows.length < BATCH) return sent
    after = [last.userId, last.sectionId]
  }
}
