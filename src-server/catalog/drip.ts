// Drip schedules (issue 33): per course section, "opens N days after the learner's access began", "opens on a date",
// or the later of both. No row: the section opens at once. The schedule is course content, so catalog/ owns it;
// when a lesson opens for a given learner is flows/drip-access.ts's to say.

import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'

export interface DripRule {
  afterDays: number | null
  opensAt: Date | null
}

const DAY_MS = 86_400_000

/** When a section under `rule` opens for a learner whose access began at `began`: the later of both parts set. */
export function unlockDate(rule: DripRule, began: Date): Date {
  const parts = [
    rule.afterDays === null ? null : began.getTime() + rule.afterDays * DAY_MS,
    rule.opensAt?.getTime() ?? null,
  ].filter((ms): ms is number => ms !== null)
  return new Date(Math.max(...parts))
}

/** The course's scheduled sections: section id → rule. */
export async function readDripSchedule(db: DB, courseId: string): Promise<Map<string, DripRule>> {
  const rows = await db
    .selectFrom('section_drips')
    .select(['section_id', 'after_days', 'opens_at'])
    .where('course_id', '=', courseId)
    .execute()
  return new Map(rows.map((row) => [row.section_id, { afterDays: row.after_days, opensAt: row.opens_at }]))
}

/** The rule over one lesson (through its section), or undefined. A preview lesson is never dripped. */
export async function dripOfLesson(db: DB, lessonId: string): Promise<DripRule | undefined> {
  const row = await db
    .selectFrom('lessons as l')
    .innerJoin('section_drips as d', 'd.section_id', 'l.section_id')
    .select(['d.after_days', 'd.opens_at'])
    .where('l.id', '=', lessonId)
    .where('l.is_preview', '=', false)
    .executeTakeFirst()
  return row ? { afterDays: row.after_days, opensAt: row.opens_at } : undefined
}

/**
 * Sets (or, with both parts null, removes) a section's schedule. Unlocks are computed from the schedule when asked,
 * so every pending unlock follows the change at once; `created_at` is kept, so learners whose section the change
 * opens still get their mail (flows/drip-unlocks.ts).
 */
export async function setSectionDrip(db: DB, courseId: string, sectionId: string, rule: DripRule) {
  const section = await db
    .selectFrom('course_sections')
    .select('id')
    .where('id', '=', sectionId)
    .where('course_id', '=', courseId)
    .executeTakeFirst()
  if (!section) throw new DomainError('not_found', 'Section not found')
  if (rule.afterDays === null && rule.opensAt === null) {
    await db.deleteFrom('section_drips').where('section_id', '=', sectionId).execute()
    return
  }
  const now = clock.now()
  await db
    .insertInto('section_drips')
    .values({
      section_id: sectionId,
      course_id: courseId,
      after_days: rule.afterDays,
      opens_at: rule.opensAt,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('section_id').doUpdateSet({ after_days: rule.afterDays, opens_at: rule.opensAt, updated_at: now }),
    )
    .execute()
}

/** The schedule as the editors show it: section id → { afterDays, opensAt (ISO) }. */
export async function dripScheduleView(db: DB, courseId: string) {
  const schedule = await readDripSchedule(db, courseId)
  return [...schedule].map(([sectionId, rule]) => ({
    sectionId,
    afterDays: rule.afterDays,
    opensAt: rule.opensAt?.toISOString() ?? null,
  }))
}
