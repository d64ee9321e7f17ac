// A generated learning history over the generated catalogue (`npm run db:generate -- --days D`, after the orders of
// generate-history.ts): what the creator analytics' Pro sections read. The generated creator's 200 courses and the
// best-selling others (`learningCourses` in all) get two sections of eight lessons (five videos with durations, two
// quizzes of five questions, a welcome page); learners work through them over the D days: premium members (a pool of
// generated learners, `progressPerDay` lesson rows a day in all) and the buyers of the generated orders of those
// courses. An enrolment reaches a number of lessons (a drop-off: 1 to 8, a lesson every 12 hours, never past now),
// completes those before the last, watches a video it stops in part of the way (its watched range ends there), takes
// a quiz it reaches (passed once it went on, some on a second attempt; failed or not taken yet where it stopped),
// finishes the course now and then (a completion) and rates it sometimes. Set-based SQL in batches of enrolments
// (rows derived from hashes, ids from md5, so no lookups), deterministic for the same options and `now`.
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { Database } from '../types.ts'
import { GENERATED_ID_PREFIX } from './generate.ts'

export const LEARNER_EMAIL = (n: string) => `generated-learner-${n}@example.test`
export const LESSONS_PER_COURSE = 8
/** Lesson positions (1-8) that are videos, and those with a quiz. */
export const VIDEO_POSITIONS = [2, 3, 5, 6, 7]
export const QUIZ_POSITIONS = [4, 8]
export const QUIZ_QUESTIONS = 5
export const QUIZ_PASS_PERCENT = 70
/** An enrolment reaches 1 + h % 9 lessons, at most 8: rows per enrolment on average (before `now` cuts some). */
export const PROGRESS_ROWS_PER_ENROLMENT = (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 * 2) / 9
const LESSON_HOURS = 12
const LESSON_TITLES = [
  'Welcome and setup',
  'Core ideas',
  'A guided walkthrough',
  'Check your understanding',
  'Going further',
  'Building a real project',
  'Common mistakes and fixes',
  'Final quiz',
]
const REVIEW_BODIES = ['', '', 'Clear and practical.', 'Great pace, good examples.', 'Too slow for me.']

export interface LearningOptions {
  /** The generated creator's courses (the first slots) then other courses, in slot order. */
  creatorCourseIndexes: (slot: RawBuilder<unknown>) => RawBuilder<unknown>
  /** How many courses learners take (the creator's included). */
  learningCourses: number
  /** Lesson progress rows a day, about (premium learners'; the buyers' come on top). */
  progressPerDay: number
  days: number
  /** The first day of the history (midnight UTC) and the generator's now. */
  first: Date
  now: Date
  /** Enrolments per INSERT statement. */
  batch?: number
  onProgress?: (message: string) => void
}

export interface LearningTotals {
  learners: number
  enrolments: number
  courses: number
}

const h = (expr: RawBuilder<unknown>, salt: number) =>
  sql`(hashint8((${expr})::bigint * 1000003 + ${sql.lit(salt)}) & 2147483647)`
const u = (expr: RawBuilder<unknown>, salt: number) => sql`(${h(expr, salt)}::float8 / 2147483648.0)`
const learnerId = (index: RawBuilder<unknown>) => sql`md5('generated-learner-' || (${index})::text)::uuid`
const sectionId = (course: RawBuilder<unknown>, section: RawBuilder<unknown>) =>
  sql`md5('generated-section-' || (${course}) || '-' || (${section})::text)::uuid`
const lessonId = (course: RawBuilder<unknown>, position: RawBuilder<unknown>) =>
  sql`md5('generated-lesson-' || (${course}) || '-' || (${position})::text)::uuid`
const isVideo = (position: RawBuilder<unknown>) => sql`(${position}) in (${sql.join(VIDEO_POSITIONS.map(sql.lit))})`
/** A video's length in seconds: 4 to 19 minutes. */
const videoSeconds = (slot: RawBuilder<unknown>, position: RawBuilder<unknown>) =>
  sql`(240 + ${h(sql`(${slot}) * 8 + (${position})`, 13)} % 900)`
/** The quiz's questions: true-or-false, the answer true. */
const QUESTIONS = JSON.stringify(
  Array.from({ length: QUIZ_QUESTIONS }, (_, i) => ({
    id: `q${i + 1}`,
    type: 'true_false',
    prompt: `Statement ${i + 1} from the lessons is right.`,
    explanation: 'It is, as the lesson shows.',
    answer: true,
  })),
)
const LAYOUT = JSON.stringify({ questions: Array.from({ length: QUIZ_QUESTIONS }, (_, i) => `q${i + 1}`), options: {} })
/** Per number of right answers (0-5): the first ones answered right. */
const ANSWERS = Array.from({ length: QUIZ_QUESTIONS + 1 }, (_, right) =>
  JSON.stringify(Object.fromEntries(Array.from({ length: QUIZ_QUESTIONS }, (_, i) => [`q${i + 1}`, i < right]))),
)

/** The courses' sections, lessons and quizzes (kept from an earlier run: their ids are the same). */
async function insertCurricula(db: Kysely<Database>, options: LearningOptions): Promise<void> {
  const slot = sql`s`
  const course = sql`${GENERATED_ID_PREFIX} || lpad((${options.creatorCourseIndexes(slot)})::text, 7, '0')`
  const last = sql.lit(options.learningCourses - 1)
  await sql`insert into course_sections (id, course_id, position, title)
    select ${sectionId(course, sql`p`)}, ${course}, p, case when p = 1 then 'Getting started' else 'In practice' end
    from generate_series(0, ${last}::int) s, generate_series(1, 2) p
    on conflict do nothing`.execute(db)
  const titles = sql`(${sql.val(LESSON_TITLES)}::text[])`
  await sql`insert into lessons (id, course_id, section_id, position, title, duration_seconds, kind,
      video_duration_seconds, body_markdown)
    select ${lessonId(course, sql`p`)}, ${course}, ${sectionId(course, sql`1 + (p - 1) / 4`)}, 1 + (p - 1) % 4,
      ${titles}[p],
      case when ${isVideo(sql`p`)} then ${videoSeconds(slot, sql`p`)} else 300 end,
      case when ${isVideo(sql`p`)} then 'video' else 'article' end,
      case when ${isVideo(sql`p`)} then ${videoSeconds(slot, sql`p`)} end,
      'Generated lesson.'
    from generate_series(0, ${last}::int) s, generate_series(1, ${sql.lit(LESSONS_PER_COURSE)}) p
    on conflict do nothing`.execute(db)
  await sql`insert into quizzes (lesson_id, course_id, pass_percent, questions)
    select ${lessonId(course, sql`p`)}, ${course}, ${sql.lit(QUIZ_PASS_PERCENT)}, ${QUESTIONS}::jsonb
    from generate_series(0, ${last}::int) s, unnest(${sql.val(QUIZ_POSITIONS)}::int[]) p
    on conflict do nothing`.execute(db)
}

/**
 * Writes the learning of a set of enrolments: `enrolments` selects (n, slot, user_id, started), n the hash seed.
 * Progress rows, completions, quiz attempts and reviews, one statement each.
 */
async function insertLearning(db: Kysely<Database>, options: LearningOptions, enrolments: RawBuilder<unknown>) {
  const n = sql`n`
  const course = sql`${GENERATED_ID_PREFIX} || lpad((${options.creatorCourseIndexes(sql`slot`)})::text, 7, '0')`
  const hours = sql.lit(LESSON_HOURS)
  const reached = sql`with e as (${enrolments}), r as (
      select e.*, ${course} as course_id,
        least(${sql.lit(LESSONS_PER_COURSE)}, 1 + ${h(n, 11)} % 9) as want,
        1 + floor(extract(epoch from (${options.now}::timestamptz - started)) / (${hours} * 3600))::int as can
      from e
    ), x as (
      select r.*, least(want, can) as reach,
        want = ${sql.lit(LESSONS_PER_COURSE)} and can >= ${sql.lit(LESSONS_PER_COURSE)} and ${h(n, 12)} % 4 <> 0
          as finished
      from r
    )`
  const at = (position: RawBuilder<unknown>) => sql`started + (${position} - 1) * ${hours} * interval '1 hour'`
  await sql`${reached}
    insert into lesson_progress (user_id, course_id, lesson_id, position_seconds, watched_ranges, watched_seconds,
      completed_at, updated_at, changed_at)
    select user_id, course_id, ${lessonId(sql`course_id`, sql`p`)}, coalesce(stop, 0),
      case when stop is null then '[]'::jsonb else jsonb_build_array(jsonb_build_array(0, stop)) end,
      coalesce(stop, 0), case when done then at end, at, at
    from (
      select x.*, p, p < reach or finished as done, ${at(sql`p`)} as at,
        case when ${isVideo(sql`p`)} then
          case when p < reach or finished then ${videoSeconds(sql`slot`, sql`p`)}
            else floor(${videoSeconds(sql`slot`, sql`p`)} * (0.05 + 0.9 * ${u(sql`n * 8 + p`, 14)}))::int end
        end as stop
      from x cross join generate_series(1, ${sql.lit(LESSONS_PER_COURSE)}) p where p <= reach
    ) rows`.execute(db)
  await sql`${reached}
    insert into course_completions (user_id, course_id, completed_at, lesson_count, access_source)
    select user_id, course_id, ${at(sql.lit(LESSONS_PER_COURSE))}, ${sql.lit(LESSONS_PER_COURSE)}, 'premium'
    from x where finished`.execute(db)
  // A quiz it went past: passed (a quarter on the second attempt). The quiz where it stopped: a third have not
  // taken it yet, the rest failed once.
  const answer = sql`(array[${sql.join(ANSWERS.map((json) => sql`${json}::jsonb`))}])[1 + right_answers]`
  await sql`${reached}, q as (
      select x.*, q, reach > q or finished as passes, ${h(sql`n * 8 + q`, 15)} as k
      from x cross join unnest(${sql.val(QUIZ_POSITIONS)}::int[]) q where reach >= q
    ), a as (
      select q.*, a, passes and (a = 2 or k % 4 <> 0) as passed
      from q cross join generate_series(1, 2) a
      where (a = 1 and (passes or k % 3 <> 0)) or (a = 2 and passes and k % 4 = 0)
    )
    insert into quiz_attempts (lesson_id, course_id, user_id, started_at, submitted_at, layout, answers, results,
      question_count, correct_count, score_percent, passed)
    select ${lessonId(sql`course_id`, sql`q`)}, course_id, user_id,
      ${at(sql`q`)} - interval '20 minutes' + a * interval '5 minutes',
      ${at(sql`q`)} - interval '16 minutes' + a * interval '5 minutes',
      ${LAYOUT}::jsonb, ${answer}, ${answer},
      ${sql.lit(QUIZ_QUESTIONS)}, right_answers, right_answers * 100 / ${sql.lit(QUIZ_QUESTIONS)}, passed
    from (select a.*, case when passed then 4 + k % 2 else 1 + k % 3 end as right_answers from a) graded`.execute(db)
  // A quarter of those who got to the third lesson rate the course: mostly 4 and 5 stars.
  await sql`${reached}
    insert into course_reviews (course_id, user_id, rating, body, created_at, updated_at)
    select course_id, user_id,
      (array[5, 5, 5, 5, 5, 4, 4, 4, 4, 3, 3, 2, 1])[1 + ${h(n, 17)} % 13],
      (${sql.val(REVIEW_BODIES)}::text[])[1 + ${h(n, 18)} % ${sql.lit(REVIEW_BODIES.length)}],
      ${at(sql`reach`)}, ${at(sql`reach`)}
    from x where reach >= 3 and ${h(n, 16)} % 4 = 0`.execute(db)
}

/**
 * Deletes the learning rows in the generated courses, one statement (a scan) per table. The learners and lessons
 * stay for the next run (same ids): deleting them row by row would check every table referring to a user or a
 * lesson, some without an index on that column (a scan of millions of rows per learner or lesson).
 */
export async function clearLearning(db: Kysely<Database>): Promise<void> {
  const tables = ['lesson_progress', 'quiz_attempts', 'course_completions', 'course_reviews']
  const counts = ['analytics_learner_lessons', 'analytics_learner_courses', 'analytics_course_done_counts']
  for (const table of [...tables, 'analytics_course_progress', 'analytics_lesson_stats', ...counts]) {
    await sql`delete from ${sql.table(table)} where course_id like ${`${GENERATED_ID_PREFIX}%`}`.execute(db)
  }
  // The analytics job's next run rebuilds the learner counts from the new rows.
  await sql`delete from analytics_rollup_state where name = 'progress_at'`.execute(db)
}

/** Replaces the generated learning (the rows of an earlier run go first; its learners and lessons are reused). */
export async function generateLearning(db: Kysely<Database>, options: LearningOptions): Promise<LearningTotals> {
  const batch = options.batch ?? 100_000
  const courses = options.learningCourses
  const perDay = Math.max(1, Math.round(options.progressPerDay / PROGRESS_ROWS_PER_ENROLMENT))
  const enrolments = options.progressPerDay > 0 ? options.days * perDay : 0
  // A learner takes a course once: enrolment n is on slot n % courses, by learner (n / courses + slot * 7919) % pool.
  const learners = Math.max(1000, Math.min(200_000, enrolments), Math.ceil(enrolments / Math.max(1, courses)))

  await clearLearning(db)
  if (courses === 0) return { learners: 0, enrolments: 0, courses: 0 }

  await insertCurricula(db, options)
  options.onProgress?.(`${courses.toLocaleString('en-US')} courses with ${LESSONS_PER_COURSE} lessons`)
  await sql`insert into users (id, email, first_name, last_name)
    select ${learnerId(sql`g`)}, 'generated-learner-' || g || '@example.test', 'Learner', g::text
    from generate_series(0, ${sql.lit(learners - 1)}::int) g
    on conflict do nothing`.execute(db)
  // Premium members: a staff grant from the first day.
  await sql`insert into access_grants (user_id, kind, source, starts_at)
    select ${learnerId(sql`g`)}, 'premium', 'staff', ${options.first}::timestamptz
    from generate_series(0, ${sql.lit(learners - 1)}::int) g
    on conflict do nothing`.execute(db)

  const g = sql`g`
  for (let start = 0; start < enrolments; start += batch) {
    const end = Math.min(enrolments, start + batch)
    await insertLearning(
      db,
      options,
      sql`select g::bigint as n, g % ${sql.lit(courses)} as slot,
          ${learnerId(sql`(g / ${sql.lit(courses)} + (g % ${sql.lit(courses)}) * 7919) % ${sql.lit(learners)}`)} as user_id,
          ${options.first}::timestamptz + (g::float8 / ${sql.lit(perDay)}) * interval '1 day' as started
        from generate_series(${sql.lit(start)}::int, ${sql.lit(end - 1)}::int) ${g}`,
    )
    options.onProgress?.(`${end.toLocaleString('en-US')} of ${enrolments.toLocaleString('en-US')} enrolments`)
  }
  // The buyers of the generated orders of these courses (a line not given back; one enrolment per buyer and course).
  const slotOf = await slotOfCourse(db, options)
  const bought = await sql<{ n: string }>`select count(*) as n from (${buyerEnrolments(slotOf, courses)}) b`.execute(db)
  await insertLearning(db, options, buyerEnrolments(slotOf, courses))
  options.onProgress?.(`${Number(bought.rows[0]?.n ?? 0).toLocaleString('en-US')} buyers' enrolments`)
  return { learners, enrolments: enrolments + Number(bought.rows[0]?.n ?? 0), courses }
}

/** A generated course's slot from its id (the inverse of creatorCourseIndexes), as SQL over `course_id`. */
async function slotOfCourse(db: Kysely<Database>, options: LearningOptions) {
  const { rows } = await sql<{ slot: number; course_id: string }>`
    select s as slot, ${GENERATED_ID_PREFIX} || lpad((${options.creatorCourseIndexes(sql`s`)})::text, 7, '0') as course_id
    from generate_series(0, ${sql.lit(options.learningCourses - 1)}::int) s`.execute(db)
  return rows
}

function buyerEnrolments(slots: { slot: number; course_id: string }[], courses: number) {
  return sql`select distinct on (o.user_id, oi.course_id)
      1000000000 + substr(o.reference, 5)::bigint as n, s.slot, o.user_id, o.paid_at as started
    from order_items oi
    join orders o on o.id = oi.order_id
    join unnest(${sql.val(slots.map((row) => row.course_id))}::text[], ${sql.val(slots.map((row) => row.slot))}::int[])
      as s (course_id, slot) on s.course_id = oi.course_id
    where o.reference like 'GEN-%' and oi.refunded_at is null and s.slot < ${sql.lit(courses)}
    order by o.user_id, oi.course_id, o.paid_at`
}
