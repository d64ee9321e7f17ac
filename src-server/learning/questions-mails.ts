// Mails of the questions under lessons (issue 33), each queued in the outbox inside the change's transaction:
// the asker is told once when their question is marked answered; the course's instructors get one digest a day.
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { issueUnsubscribeLink } from '../mail/unsubscribe-links.ts'

const base = (publicUrl: string) => publicUrl.replace(/\/$/, '')
const lessonLink = (publicUrl: string, courseId: string, lessonId: string) =>
  `${base(publicUrl)}/learn/${encodeURIComponent(courseId)}/${lessonId}`

export async function sendAnsweredMail(trx: DB, questionId: string, publicUrl: string) {
  const row = await trx
    .selectFrom('lesson_questions as q')
    .innerJoin('users as u', 'u.id', 'q.author_id')
    .innerJoin('courses as c', 'c.id', 'q.course_id')
    .select(['q.title', 'q.course_id', 'q.lesson_id', 'u.email', 'u.first_name', 'c.title as course_title'])
    .where('q.id', '=', questionId)
    .executeTakeFirst()
  if (!row) return
  await enqueueMail(trx, {
    kind: 'question_answered',
    to: row.email,
    subject: `Your question was answered: ${row.title}`,
    text: `Hi ${row.first_name || 'there'},\n\nYour question “${row.title}” in ${row.course_title} was marked answered.\n\nRead the answer: ${lessonLink(publicUrl, row.course_id, row.lesson_id)}\n`,
  })
}

/** One instructor's digest of a course's new questions on one day (claimed by the question_digests row). */
export async function sendDigestMail(
  trx: DB,
  digest: {
    courseId: string
    courseTitle: string
    userId: string
    email: string
    firstName: string
    day: string
    questions: { title: string; lessonId: string }[]
  },
  publicUrl: string,
): Promise<boolean> {
  const claimed = await trx
    .insertInto('question_digests')
    .values({ course_id: digest.courseId, user_id: digest.userId, day: digest.day, questions: digest.questions.length })
    .onConflict((oc) => oc.columns(['course_id', 'user_id', 'day']).doNothing())
    .returning('day')
    .executeTakeFirst()
  if (!claimed) return false
  const n = digest.questions.length
  const lines = digest.questions
    .slice(0, 20)
    .map((q) => `- ${q.title}\n  ${lessonLink(publicUrl, digest.courseId, q.lessonId)}`)
    .join('\n')
  const more = n > 20 ? `\n…and ${n - 20} more.` : ''
  // One-click (RFC 8058): the mail's own link stops this course's digest for this instructor, as the studio's switch does.
  const unsubscribe = await issueUnsubscribeLink(
    trx,
    { userId: digest.userId, list: 'question_digest', courseId: digest.courseId },
    base(publicUrl),
  )
  await enqueueMail(trx, {
    kind: 'question_digest',
    to: digest.email,
    subject: `${n} new ${n === 1 ? 'question' : 'questions'} in ${digest.courseTitle}`,
    text: `Hi ${digest.firstName || 'there'},\n\nLearners asked ${n} new ${n === 1 ? 'question' : 'questions'} in ${digest.courseTitle} on ${digest.day}:\n\n${lines}${more}\n\nStop this daily e-mail for this course: ${unsubscribe}\n(or turn off the digest under the course's questions in the studio).\n`,
    listUnsubscribe: unsubscribe,
  })
  return true
}
