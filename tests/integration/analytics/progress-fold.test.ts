// The analytics job folds learners' changes in by difference (src-server/analytics/progress.ts). After any sequence
// of progress saves, completions and their undo, video stops, quiz submissions, course completions and runs of the
// job, the snapshots equal a recount of every row (the oracle below is the recount the job did before it was
// incremental); a rerun changes nothing; two folds at once count each learner once (docs/concurrency-proofs.md).
import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { foldLearners, learnersOfCourses, refreshCourseProgress } from '../../../src-server/analytics/progress.ts'
import { refreshChangedCourses } from '../../../src-server/analytics/rollup.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { addQuizLesson } from '../../support/quizzes.ts'

let database: TestDatabase
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

/** The snapshots the job keeps for a course. */
async function snapshots(courseId: string) {
  const course = await db()
    .selectFrom('analytics_course_progress')
    .select(['started', 'p25', 'p50', 'p75', 'completed'])
    .where('course_id', '=', courseId)
    .executeTakeFirst()
  const lessons = await db()
    .selectFrom('analytics_lesson_stats')
    .select(['lesson_id', 'reached', 'completed', 'stop_buckets', 'quiz_takers', 'quiz_passers'])
    .where('course_id', '=', courseId)
    .orderBy('lesson_id')
    .execute()
  return { course: course ?? null, lessons }
}

/** The same snapshots recounted from every row of the course. */
async function recount(courseId: string) {
  const course = await sql<{ started: number; p25: number; p50: number; p75: number; completed: number }>`
    with sized as (select count(*)::int as n from lessons where course_id = ${courseId} and not pending_review),
    learners as (
      select user_id, count(*) filter (where completed_at is not null)::int as done
      from lesson_progress where course_id = ${courseId} group by user_id
    )
    select count(*)::int as started,
      count(*) filter (where s.n > 0 and l.done * 4 >= s.n)::int as p25,
      count(*) filter (where s.n > 0 and l.done * 2 >= s.n)::int as p50,
      count(*) filter (where s.n > 0 and l.done * 4 >= s.n * 3)::int as p75,
      (select count(*)::int from course_completions where course_id = ${courseId}) as completed
    from learners l cross join sized s having count(*) > 0`.execute(db())
  const reach = await sql<{ lesson_id: string; reached: number; completed: number }>`
    select lesson_id, count(*)::int as reached, count(*) filter (where completed_at is not null)::int as completed
    from lesson_progress where course_id = ${courseId} group by lesson_id`.execute(db())
  const stops = await sql<{ lesson_id: string; bucket: number; viewers: number }>`
    select lesson_id, floor(((watched_ranges -> -1 ->> 1)::float8) / 10)::int as bucket, count(*)::int as viewers
    from lesson_progress where course_id = ${courseId} and jsonb_array_length(watched_ranges) > 0
    group by lesson_id, bucket`.execute(db())
  const quizzes = await sql<{ lesson_id: string; takers: number; passers: number }>`
    select lesson_id, count(distinct user_id)::int as takers, count(distinct user_id) filter (where passed)::int as passers
    from quiz_attempts where course_id = ${courseId} and submitted_at is not null group by lesson_id`.execute(db())
  const ids = [...new Set([...reach.rows, ...quizzes.rows].map((row) => row.lesson_id))].sort()
  const lessons = ids.map((lessonId) => {
    const buckets: number[] = []
    for (const stop of stops.rows.filter((row) => row.lesson_id === lessonId)) {
      while (buckets.length <= stop.bucket) buckets.push(0)
      buckets[stop.bucket] = stop.viewers
    }
    const reached = reach.rows.find((row) => row.lesson_id === lessonId)
    const quiz = quizzes.rows.find((row) => row.lesson_id === lessonId)
    return {
      lesson_id: lessonId,
      reached: reached?.reached ?? 0,
      completed: reached?.completed ?? 0,
      stop_buckets: buckets,
      quiz_takers: quiz?.takers ?? 0,
      quiz_passers: quiz?.passers ?? 0,
    }
  })
  return { course: course.rows[0] ?? null, lessons }
}

async function courseWithLearners(learnerCount: number) {
  const creator = await createCreator(db(), { plan: 'pro' })
  const course = await createCreatorCourse(db(), creator, { status: 'published', lessons: 3 })
  const quizId = await addQuizLesson(db(), course.id)
  const learners = []
  for (let index = 0; index < learnerCount; index++) learners.push(await createUser(db()))
  return { courseId: course.id, lessonIds: [...course.lessonIds], quizId, learners }
}

async function saveProgress(
  courseId: string,
  userId: string,
  lessonId: string,
  change: { completed: boolean; stop: number | null },
) {
  const ranges = JSON.stringify(change.stop === null ? [] : [[0, change.stop]])
  const completedAt = change.completed ? new Date() : null
  // As the learning flows write: the row once, then updates (the job sees an update by the row's changed_at).
  await db()
    .insertInto('lesson_progress')
    .values({
      user_id: userId,
      course_id: courseId,
      lesson_id: lessonId,
      watched_ranges: ranges,
      completed_at: completedAt,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'lesson_id']).doUpdateSet({ watched_ranges: ranges, completed_at: completedAt }),
    )
    .execute()
}

async function submitQuiz(courseId: string, userId: string, lessonId: string, passed: boolean) {
  await db()
    .insertInto('quiz_attempts')
    .values({
      lesson_id: lessonId,
      course_id: courseId,
      user_id: userId,
      started_at: new Date(),
      submitted_at: new Date(),
      layout: JSON.stringify([]),
      question_count: 5,
      correct_count: passed ? 5 : 1,
      score_percent: passed ? 100 : 20,
      passed,
    })
    .execute()
}

const step = fc.oneof(
  fc.record({
    kind: fc.constant('progress' as const),
    learner: fc.nat(1),
    lesson: fc.nat(1),
    completed: fc.boolean(),
    // Stops in different 10-second buckets (fast-check's small numbers would all fall in the first).
    stop: fc.constantFrom(null, 4, 12, 27, 41),
  }),
  fc.record({ kind: fc.constant('quiz' as const), learner: fc.nat(1), passed: fc.boolean() }),
  fc.record({ kind: fc.constant('finish' as const), learner: fc.nat(1) }),
  fc.record({ kind: fc.constant('fold' as const) }),
)

describe('the learner counts, folded by difference', () => {
  it('equal a recount of every row after any changes and runs, and a rerun changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        const { courseId, lessonIds, quizId, learners } = await courseWithLearners(3)
        for (const next of steps) {
          if (next.kind === 'progress') {
            await saveProgress(courseId, learners[next.learner]!.id, lessonIds[next.lesson]!, next)
          } else if (next.kind === 'quiz') {
            await submitQuiz(courseId, learners[next.learner]!.id, quizId, next.passed)
          } else if (next.kind === 'finish') {
            await db()
              .insertInto('course_completions')
              .values({
                user_id: learners[next.learner]!.id,
                course_id: courseId,
                lesson_count: 4,
                access_source: 'premium',
              })
              .onConflict((oc) => oc.doNothing())
              .execute()
          } else {
            await refreshChangedCourses(db())
            expect(await snapshots(courseId)).toEqual(await recount(courseId))
          }
        }
        await refreshChangedCourses(db())
        const folded = await snapshots(courseId)
        expect(folded).toEqual(await recount(courseId))
        await refreshChangedCourses(db())
        expect(await snapshots(courseId)).toEqual(folded)
      }),
      { numRuns: 25 },
    )
    // 25 runs take 10 s alone; beside Playwright on a busy 2-core machine several times that.
  }, 180_000)

  it("sees a completion undone (which leaves the saved position's time alone) and a video stop moved back", async () => {
    const { courseId, lessonIds, learners } = await courseWithLearners(1)
    const [learner] = learners
    for (const lessonId of lessonIds)
      await saveProgress(courseId, learner!.id, lessonId, { completed: true, stop: null })
    await refreshChangedCourses(db())
    expect((await snapshots(courseId)).course).toMatchObject({ started: 1, p75: 1 })
    // What "Mark as complete" undone writes (src-server/learning): completed_at only, not updated_at.
    await db()
      .updateTable('lesson_progress')
      .set({ completed_at: null })
      .where('user_id', '=', learner!.id)
      .where('lesson_id', 'in', lessonIds.slice(0, 2))
      .execute()
    await refreshChangedCourses(db())
    expect((await snapshots(courseId)).course).toMatchObject({ started: 1, p25: 1, p50: 0, p75: 0 })
    expect(await snapshots(courseId)).toEqual(await recount(courseId))
    // The video watched to 0:35, then stopped at 0:12 after a restart: the stop moves back a bucket, and the list
    // ends at the last stop (no trailing empty buckets).
    await saveProgress(courseId, learner!.id, lessonIds[2]!, { completed: true, stop: 35 })
    await refreshChangedCourses(db())
    await saveProgress(courseId, learner!.id, lessonIds[2]!, { completed: true, stop: 12 })
    await refreshChangedCourses(db())
    const third = (await snapshots(courseId)).lessons.find((lesson) => lesson.lesson_id === lessonIds[2])
    expect(third?.stop_buckets).toEqual([0, 1])
    expect(await snapshots(courseId)).toEqual(await recount(courseId))
  })

  it('counts each learner once when two folds of the same learners run at once', async () => {
    const { courseId, lessonIds, learners } = await courseWithLearners(3)
    for (const learner of learners) {
      for (const lessonId of lessonIds)
        await saveProgress(courseId, learner.id, lessonId, { completed: true, stop: 30 })
    }
    const moved = await learnersOfCourses(db(), [courseId])
    await Promise.all([foldLearners(db(), moved), foldLearners(db(), moved), foldLearners(db(), moved)])
    await refreshCourseProgress(db(), [courseId])
    expect(await snapshots(courseId)).toEqual(await recount(courseId))
    expect((await snapshots(courseId)).course).toMatchObject({ started: 3, p75: 3 })
  })
})
