// Honest demo ratings: demo learners who hold the seed courses, and reviews by some of them (each written after
// completing the course's first lesson, as the app requires). Each course's shown rating and review count are then
// computed from the review rows (never typed in), and its student count from the learners who hold it, so no number
// on the site is larger than the rows behind it. The seed data's rating, reviewCount and studentsCount only shape
// the demo: a course with many reviews gets more rows (about a third of the square root of its old count), with an
// average as close to its old rating as that many rows allow.
import { type Kysely, sql } from 'kysely'
import type { Database } from '../types.ts'
import { DEMO_LEARNER_COUNT, demoLearnerRows, demoReviewText } from './data/learners.ts'
import type { SeedCourse } from './data/types.ts'

const DAY_MS = 24 * 60 * 60 * 1000

export interface ReviewPlan {
  /** The stars of each review, in the order the learners write them (oldest first). */
  ratings: number[]
  /** How many demo learners hold the course (the reviewers among them). */
  students: number
}

/** Rounds to one decimal as PostgreSQL's round(numeric, 1) does, from the integer sum (no float drift). */
const averageOf = (sum: number, count: number) => Math.round((sum * 10) / count) / 10

/** The demo reviews of a course: a count scaled down from the seed's figure, stars averaging its rating. */
export function reviewPlan(course: Pick<SeedCourse, 'rating' | 'reviewCount' | 'studentsCount'>): ReviewPlan {
  const wanted = Math.min(course.reviewCount, Math.max(3, Math.round(Math.sqrt(course.reviewCount) / 3)))
  let count = wanted
  for (let n = wanted; n <= Math.min(course.reviewCount, wanted + 12); n++) {
    if (averageOf(Math.round(course.rating * n), n) === course.rating) {
      count = n
      break
    }
  }
  const sum = Math.min(5 * count, Math.max(count, Math.round(course.rating * count)))
  const base = Math.floor(sum / count)
  const tally = new Map<number, number>([[base, count - (sum - base * count)]])
  if (base < 5) tally.set(base + 1, sum - base * count)
  // Spread a quarter of the middle pairs one star apart each way (the sum, so the average, stays).
  const spread = base > 1 && base < 5 ? Math.floor((tally.get(base) ?? 0) / 8) : 0
  tally.set(base, (tally.get(base) ?? 0) - 2 * spread)
  tally.set(base - 1, (tally.get(base - 1) ?? 0) + spread)
  tally.set(base + 1, (tally.get(base + 1) ?? 0) + spread)
  const sorted = [...tally].flatMap(([stars, n]) => Array.from({ length: n }, () => stars))
  // A fixed interleaving (a step coprime with the count visits every review once), so the newest are mixed.
  const step = [7, 5, 3, 1].find((n) => count % n !== 0 || n === 1) as number
  const ratings = sorted.map((_, i) => sorted[(i * step) % count] as number)
  const ratio = course.reviewCount > 0 ? course.studentsCount / course.reviewCount : 1
  const students = Math.min(DEMO_LEARNER_COUNT, course.studentsCount, Math.max(count, Math.round(count * ratio)))
  return { ratings, students }
}

/**
 * Inserts what is missing (learners by e-mail, their access, their reviews), then sets every seed course's rating,
 * review count and student count from the rows. Runs in the seed's transaction.
 */
export async function seedReviews(trx: Kysely<Database>, courses: SeedCourse[], now: Date): Promise<void> {
  const learners = demoLearnerRows()
  const existing = await trx
    .selectFrom('users')
    .select('email')
    .where(
      'email',
      'in',
      learners.map((l) => l.email),
    )
    .execute()
  const have = new Set(existing.map((row) => row.email))
  const missing = learners.filter((l) => !have.has(l.email))
  if (missing.length > 0) await trx.insertInto('users').values(missing).execute()
  const userRows = await trx
    .selectFrom('users')
    .select(['id', 'email'])
    .where(
      'email',
      'in',
      learners.map((l) => l.email),
    )
    .execute()
  const idByEmail = new Map(userRows.map((row) => [row.email, row.id]))
  const learnerIds = learners.map((l) => idByEmail.get(l.email) as string)

  const published = courses.filter((course) => (course.status ?? 'published') === 'published')
  const firstLesson = await firstLessonOf(trx)
  const enrolments: { user_id: string; course_id: string; enrolled_at: Date }[] = []
  const progress: { user_id: string; course_id: string; lesson_id: string; completed_at: Date; updated_at: Date }[] = []
  const reviews: {
    course_id: string
    user_id: string
    rating: number
    body: string
    created_at: Date
    updated_at: Date
  }[] = []
  for (const [index, course] of published.entries()) {
    const plan = reviewPlan(course)
    const createdAt = now.getTime() - course.createdDaysAgo * DAY_MS
    const span = Math.max(1, now.getTime() - createdAt - DAY_MS)
    for (let k = 0; k < plan.students; k++) {
      const userId = learnerIds[(index * 37 + k) % learnerIds.length] as string
      // Learners joined over the course's life; reviewers (the first ones) wrote theirs some time later.
      const enrolledAt = new Date(createdAt + (span * k) / (plan.students + 1))
      enrolments.push({ user_id: userId, course_id: course.id, enrolled_at: enrolledAt })
      const rating = plan.ratings[k]
      if (rating === undefined) continue
      // A third of the way from joining to today: later learners wrote later, so the list's order follows k.
      const writtenAt = new Date(enrolledAt.getTime() + (now.getTime() - enrolledAt.getTime()) / 3)
      // A verified review: its author completed a lesson (the course's first) before writing it.
      const lessonId = firstLesson.get(course.id)
      if (!lessonId) continue
      const completedAt = new Date((enrolledAt.getTime() + writtenAt.getTime()) / 2)
      progress.push({
        user_id: userId,
        course_id: course.id,
        lesson_id: lessonId,
        completed_at: completedAt,
        updated_at: completedAt,
      })
      reviews.push({
        course_id: course.id,
        user_id: userId,
        rating,
        body: demoReviewText(rating, index * 3 + k),
        created_at: writtenAt,
        updated_at: writtenAt,
      })
    }
  }
  // Existing rows (a second seed, or a learner's own later changes) are left as they are.
  const iso = (date: Date) => date.toISOString()
  // Demo learners hold their courses through a staff grant in the access ledger (they bought nothing).
  await insertMissing(trx, 'access_grants', ['user_id', 'grant_key'], {
    user_id: ['uuid', enrolments.map((e) => e.user_id)],
    kind: ['text', enrolments.map(() => 'course')],
    course_id: ['text', enrolments.map((e) => e.course_id)],
    source: ['text', enrolments.map(() => 'staff')],
    starts_at: ['timestamptz', enrolments.map((e) => iso(e.enrolled_at))],
    created_at: ['timestamptz', enrolments.map((e) => iso(e.enrolled_at))],
  })
  await insertMissing(trx, 'lesson_progress', ['user_id', 'lesson_id'], {
    user_id: ['uuid', progress.map((p) => p.user_id)],
    course_id: ['text', progress.map((p) => p.course_id)],
    lesson_id: ['uuid', progress.map((p) => p.lesson_id)],
    completed_at: ['timestamptz', progress.map((p) => iso(p.completed_at))],
    updated_at: ['timestamptz', progress.map((p) => iso(p.updated_at))],
  })
  await insertMissing(trx, 'course_reviews', ['course_id', 'user_id'], {
    course_id: ['text', reviews.map((r) => r.course_id)],
    user_id: ['uuid', reviews.map((r) => r.user_id)],
    rating: ['smallint', reviews.map((r) => r.rating)],
    body: ['text', reviews.map((r) => r.body)],
    created_at: ['timestamptz', reviews.map((r) => iso(r.created_at))],
    updated_at: ['timestamptz', reviews.map((r) => iso(r.updated_at))],
  })
  await refreshSeedCourseNumbers(
    trx,
    courses.map((course) => course.id),
  )
}

/**
 * Inserts rows given as one array per column, in one statement over unnest(): thousands of rows parse far faster
 * than a VALUES list (on PGlite above all). Rows that clash with `conflict` are left as they are.
 */
async function insertMissing(
  trx: Kysely<Database>,
  table: keyof Database,
  conflict: string[],
  columns: Record<string, [type: string, values: unknown[]]>,
) {
  const names = Object.keys(columns)
  const arrays = Object.values(columns).map(([type, values]) => sql`${values}::${sql.raw(type)}[]`)
  await sql`insert into ${sql.table(table)} (${sql.join(names.map((name) => sql.ref(name)))})
    select * from unnest(${sql.join(arrays)})
    on conflict (${sql.join(conflict.map((name) => sql.ref(name)))}) do nothing`.execute(trx)
}

/** Each course's first lesson (first section, first position). */
async function firstLessonOf(trx: Kysely<Database>): Promise<Map<string, string>> {
  const rows = await trx
    .selectFrom('lessons as l')
    .innerJoin('course_sections as s', 's.id', 'l.section_id')
    .select(['l.id', 'l.course_id'])
    .orderBy('s.position', 'desc')
    .orderBy('l.position', 'desc')
    .execute()
  // Ordered last to first, so each course's first lesson is the one left in the map.
  return new Map(rows.map((row) => [row.course_id, row.id]))
}

/** Rating, review count and student count of the given courses, from their visible reviews and their learners. */
async function refreshSeedCourseNumbers(trx: Kysely<Database>, courseIds: string[]) {
  if (courseIds.length === 0) return
  await trx
    .updateTable('courses')
    .set((eb) => ({
      rating: eb
        .selectFrom('course_reviews as r')
        .select(sql<number>`coalesce(round(avg(r.rating)::numeric, 1), 0)::float8`.as('v'))
        .whereRef('r.course_id', '=', 'courses.id')
        .where('r.hidden_at', 'is', null)
        .where('r.access_revoked', '=', false),
      review_count: eb
        .selectFrom('course_reviews as r')
        .select(sql<number>`count(*)::int`.as('v'))
        .whereRef('r.course_id', '=', 'courses.id')
        .where('r.hidden_at', 'is', null)
        .where('r.access_revoked', '=', false),
      students_count: eb
        .selectFrom('access_grants as g')
        .select(sql<number>`count(distinct g.user_id)::int`.as('v'))
        .whereRef('g.course_id', '=', 'courses.id')
        .where('g.kind', '=', 'course')
        .where('g.revoked_at', 'is', null),
    }))
    .where('id', 'in', courseIds)
    .execute()
}
