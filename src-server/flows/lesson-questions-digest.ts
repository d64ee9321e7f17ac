// The instructors' daily digest of new questions (issue 33): a daily job (jobs/registry.ts
// 'learning.question-digest') mails each instructor of a course (creator and co-instructors, unless they opted out
// for that course) the questions asked on the previous UTC day; the question_digests row makes it once per day even
// when the job runs twice.
import { sql } from 'kysely'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { sendDigestMail } from '../learning/questions-mails.ts'

const DAY_MS = 86_400_000

export async function sendQuestionDigests(db: DB, publicUrl: string, now = clock.now()): Promise<number> {
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
  const start = new Date(end.getTime() - DAY_MS)
  const day = start.toISOString().slice(0, 10)
  const questions = await db
    .selectFrom('lesson_questions as q')
    .select(['q.course_id', 'q.title', 'q.lesson_id'])
    .where('q.created_at', '>=', start)
    .where('q.created_at', '<', end)
    .where('q.hidden_at', 'is', null)
    .orderBy('q.course_id')
    .orderBy('q.created_at')
    .execute()
  const byCourse = new Map<string, { title: string; lessonId: string }[]>()
  for (const q of questions) {
    const list = byCourse.get(q.course_id) ?? []
    list.push({ title: q.title, lessonId: q.lesson_id })
    byCourse.set(q.course_id, list)
  }
  let sent = 0
  for (const [courseId, list] of byCourse) {
    const recipients = await db
      .selectFrom('course_instructors as ci')
      .innerJoin('users as u', 'u.id', 'ci.user_id')
      .innerJoin('courses as c', 'c.id', 'ci.course_id')
      .select(['u.id', 'u.email', 'u.first_name', 'c.title'])
      .where('ci.course_id', '=', courseId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('question_digest_optouts as o')
              .select(sql`1`.as('one'))
              .whereRef('o.course_id', '=', 'ci.course_id')
              .whereRef('o.user_id', '=', 'ci.user_id'),
          ),
        ),
      )
      .execute()
    for (const person of recipients) {
      const digest = {
        courseId,
        courseTitle: person.title,
        userId: person.id,
        email: person.email,
        firstName: person.first_name,
        day,
        questions: list,
      }
      if (await db.transaction().execute((trx) => sendDigestMail(trx, digest, publicUrl))) sent++
    }
  }
  return sent
}
