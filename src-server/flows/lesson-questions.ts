// Questions under lessons (issue 33). Who may do what:
// - read and post (questions, answers, upvotes, reports): learners who hold the course now (a learner who lost it
//   keeps their posts, shown to others, but can no longer post or read), the course's creator and co-instructors,
//   and staff; a question is asked under a lesson the asker may open (a dripped lesson waits for its date);
// - moderate (mark answered, hide and unhide, read reports): the course's creator and co-instructors, staff editors.
// Posts are Markdown rendered and sanitised on the server (learning/markdown.ts, as lesson articles). Posting is rate
// limited per person (security/rate-limit.ts RATE_RULES.lessonPosts).
import type { z } from 'zod'
import { hasRole, isStaff, type Role } from '../../src-shared/roles.ts'
import type {
  answerInput,
  askQuestionInput,
  dismissReportsInput,
  hideInput,
  markAnsweredInput,
  questionListInput,
  reportInput,
  reportQueueInput,
  voteInput,
} from '../../src-shared/schemas/questions.ts'
import { findCourseForLearning, findLessonRow } from '../catalog/repository-lessons.ts'
import { taughtCourseIds } from '../creators/course-team.ts'
import { findCreator } from '../creators/repository.ts'
import { assertCourseAction, canOnCourse } from '../creators/school-access.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { attachPostImages, findPostImage } from '../learning/post-images.ts'
import {
  digestOptedOut,
  dismissReports,
  findQuestion,
  insertAnswer,
  insertQuestion,
  insertReport,
  listAnswers,
  listQuestions,
  listReportQueue,
  listReports,
  type QuestionRow,
  setAnswered,
  setDigestOptOut,
  setHidden,
  setVote,
  type Viewer,
} from '../learning/questions.ts'
import { sendAnsweredMail } from '../learning/questions-mails.ts'
import { reserveAttempt } from '../security/attempts.ts'
import { RATE_RULES, type RateLimiter } from '../security/rate-limit.ts'
import { sectionsLockedUntil } from './drip-access.ts'
import { canOpenLesson, canPreviewLesson, courseAccessSource } from './lesson-access.ts'
import { emitCourseEvent } from './webhook-events.ts'

type Person = { id: string; role: Role }
export const QUESTION_MESSAGES = {
  noAccess: 'Only learners of this course, its instructors and staff can take part in its questions',
  tooMany: 'You are posting too quickly. Please wait a few minutes.',
  moderatorsOnly: 'Only the course’s instructors and staff can do that',
} as const

async function standing(db: DB, user: Person, courseId: string) {
  const course = await findCourseForLearning(db, courseId)
  if (!course) throw new DomainError('not_found', 'Course not found')
  const instructor = await canOnCourse(db, user.id, courseId, 'questions.answer')
  const moderator = instructor || hasRole(user.role, 'editor')
  const member = moderator || isStaff(user.role) || (await courseAccessSource(db, user, course)) !== null
  return { course, moderator, member }
}

async function memberOf(db: DB, user: Person, courseId: string) {
  const found = await standing(db, user, courseId)
  if (!found.member) throw new DomainError('forbidden', QUESTION_MESSAGES.noAccess)
  return found
}

async function questionFor(db: DB, questionId: string) {
  const question = await findQuestion(db, questionId)
  if (!question) throw new DomainError('not_found', 'Question not found')
  return question
}

const authorName = (first: string, last: string) => [first, last ? `${last[0]}.` : ''].filter(Boolean).join(' ')

async function render() {
  return (await import('../learning/markdown.ts')).renderPostMarkdown
}

function toView(row: QuestionRow, viewer: Viewer, html: (md: string) => string) {
  return {
    id: row.id,
    lessonId: row.lesson_id,
    lessonTitle: row.lesson_title,
    title: row.title,
    html: html(row.body_markdown),
    author: authorName(row.first_name, row.last_name),
    mine: row.author_id === viewer.id,
    upvotes: row.upvotes,
    voted: row.voted !== null,
    answerCount: row.answer_count,
    answered: row.answered_at !== null,
    hidden: row.hidden_at !== null,
    createdAt: row.created_at.toISOString(),
  }
}

async function limitPosts(limiter: RateLimiter, userId: string) {
  await reserveAttempt(
    limiter,
    [{ rule: RATE_RULES.lessonPosts, key: `lesson-posts:${userId}` }],
    QUESTION_MESSAGES.tooMany,
  )
}

export async function questionPage(db: DB, user: Person, input: z.output<typeof questionListInput>) {
  // A lesson's questions are read where it may be opened: not under a dripped lesson before its date.
  if (input.lessonId) await mayPostUnder(db, user, input.courseId, input.lessonId)
  const { course, moderator } = await memberOf(db, user, input.courseId)
  // The whole course's list (and its search) leaves out the questions of the sections not yet open to the learner.
  const closedSectionIds = input.lessonId || moderator ? [] : await closedSections(db, user, course)
  const viewer = { id: user.id, moderator }
  const [page, html] = await Promise.all([listQuestions(db, viewer, { ...input, closedSectionIds }), render()])
  return { items: page.items.map((row) => toView(row, viewer, html)), nextCursor: page.nextCursor, moderator }
}

/** The sections of the course whose drip date has not come for this learner (none for staff and moderators). */
async function closedSections(db: DB, user: Person, course: Awaited<ReturnType<typeof standing>>['course']) {
  if (isStaff(user.role)) return []
  const source = await courseAccessSource(db, user, course)
  return source ? [...(await sectionsLockedUntil(db, user.id, course, source)).keys()] : []
}

/**
 * The question, for someone who may read and post under its lesson now (a dripped lesson waits for its date) and may
 * see it: one a moderator hid is its author's and the moderators' alone, so nobody else reads, votes on or reports it.
 */
async function openQuestion(db: DB, user: Person, questionId: string) {
  const question = await questionFor(db, questionId)
  const { moderator } = await mayPostUnder(db, user, question.course_id, question.lesson_id)
  if (question.hidden_at && !moderator && question.author_id !== user.id) {
    throw new DomainError('not_found', 'Question not found')
  }
  return { question, moderator }
}

export async function questionThread(db: DB, user: Person, questionId: string) {
  const { moderator } = await openQuestion(db, user, questionId)
  const viewer = { id: user.id, moderator }
  const [answers, html] = await Promise.all([listAnswers(db, viewer, questionId), render()])
  return answers.map((answer) => ({
    id: answer.id,
    html: html(answer.body_markdown),
    author: authorName(answer.first_name, answer.last_name),
    mine: answer.author_id === user.id,
    hidden: answer.hidden_at !== null,
    createdAt: answer.created_at.toISOString(),
  }))
}

/** Refuses unless the user may read and post under this lesson: a member of the course who may open the lesson. */
export async function mayPostUnder(db: DB, user: Person, courseId: string, lessonId: string) {
  const { course, moderator } = await memberOf(db, user, courseId)
  const lesson = await findLessonRow(db, courseId, lessonId)
  if (!lesson) throw new DomainError('not_found', 'Lesson not found')
  if (
    !moderator &&
    !isStaff(user.role) &&
    !(await canOpenLesson(db, user, course, { id: lesson.id, isPreview: false }))
  ) {
    throw new DomainError('forbidden', 'This lesson is not open to you yet')
  }
  return { course, moderator }
}

/**
 * An image of a post, for a viewer who may see its lesson (a learner it has opened for, the course's editors, staff)
 * and take part in the course's questions; null for anyone else (answered as not found, so ids are not probed). The
 * images of a hidden post are for the course's instructors and staff only.
 */
export async function postImageFor(db: DB, user: Person | null, imageId: string) {
  const image = await findPostImage(db, imageId)
  if (!image || !user) return null
  const found = await standing(db, user, image.course_id).catch(() => null)
  if (!found?.member) return null
  // A hidden post's images go with it: only the course's instructors and staff still load them (restored: served again).
  if (image.post_hidden && !found.moderator && !isStaff(user.role)) return null
  const open = await canPreviewLesson(db, user, found.course, { id: image.lesson_id, isPreview: false })
  return open ? image : null
}

export async function askQuestion(
  db: DB,
  limiter: RateLimiter,
  user: Person,
  input: z.output<typeof askQuestionInput>,
) {
  await mayPostUnder(db, user, input.courseId, input.lessonId)
  await limitPosts(limiter, user.id)
  return inTransaction(db, async (trx) => {
    const question = await insertQuestion(trx, { ...input, authorId: user.id })
    await attachPostImages(trx, {
      id: question.id,
      kind: 'question',
      courseId: input.courseId,
      lessonId: input.lessonId,
      authorId: user.id,
      body: input.body,
    })
    await emitCourseEvent(trx, input.courseId, 'question.asked', {
      learnerId: user.id,
      lessonId: input.lessonId,
      questionId: question.id,
      title: input.title,
    })
    return question
  })
}

export async function answerQuestion(db: DB, limiter: RateLimiter, user: Person, input: z.output<typeof answerInput>) {
  const { question, moderator } = await openQuestion(db, user, input.questionId)
  if (question.hidden_at && !moderator) throw new DomainError('not_found', 'Question not found')
  await limitPosts(limiter, user.id)
  return db.transaction().execute(async (trx) => {
    const answer = await insertAnswer(trx, question.id, user.id, input.body)
    await attachPostImages(trx, {
      id: answer.id,
      kind: 'answer',
      courseId: question.course_id,
      lessonId: question.lesson_id,
      authorId: user.id,
      body: input.body,
    })
    return answer
  })
}

async function moderatorOf(db: DB, user: Person, questionId: string) {
  const question = await questionFor(db, questionId)
  const { moderator } = await standing(db, user, question.course_id)
  if (!moderator) throw new DomainError('forbidden', QUESTION_MESSAGES.moderatorsOnly)
  return question
}

export async function markAnswered(db: DB, user: Person, input: z.output<typeof markAnsweredInput>, publicUrl: string) {
  const question = await moderatorOf(db, user, input.questionId)
  await db.transaction().execute(async (trx) => {
    if (await setAnswered(trx, question.id, input.answered)) await sendAnsweredMail(trx, question.id, publicUrl)
  })
  return { answered: input.answered }
}

export async function voteQuestion(db: DB, user: Person, input: z.output<typeof voteInput>) {
  const { question } = await openQuestion(db, user, input.questionId)
  return db.transaction().execute((trx) => setVote(trx, question.id, user.id, input.up))
}

export async function hidePost(db: DB, user: Person, input: z.output<typeof hideInput>) {
  const question = await moderatorOf(db, user, input.questionId)
  await setHidden(db, question.id, input.answerId, user.id, input.hidden)
  return { hidden: input.hidden }
}

export async function reportPost(db: DB, limiter: RateLimiter, user: Person, input: z.output<typeof reportInput>) {
  const { question } = await openQuestion(db, user, input.questionId)
  await reserveAttempt(
    limiter,
    [{ rule: RATE_RULES.lessonReports, key: `lesson-reports:${user.id}` }],
    QUESTION_MESSAGES.tooMany,
  )
  await insertReport(db, { ...input, courseId: question.course_id, reporterId: user.id })
  return { reported: true }
}

/**
 * The reported-posts queue: staff editors see every course's (or one course's), a course's instructors their own
 * courses' (a creator with none an empty list); anyone else is refused. Each post once, with how many people
 * reported it and their latest reasons.
 */
export async function reportQueue(db: DB, user: Person, input: z.output<typeof reportQueueInput>) {
  let courseIds: string[] | null
  if (hasRole(user.role, 'editor')) courseIds = input.courseId ? [input.courseId] : null
  else {
    const taught = await taughtCourseIds(db, user.id)
    // A creator with no course yet has an empty queue, not a refusal (stop 84).
    if (taught.length === 0 && !(await findCreator(db, user.id))) {
      throw new DomainError('forbidden', QUESTION_MESSAGES.moderatorsOnly)
    }
    courseIds = input.courseId ? taught.filter((id) => id === input.courseId) : taught
  }
  const [rows, html] = await Promise.all([listReportQueue(db, courseIds), render()])
  return rows.map((row) => ({
    courseId: row.course_id,
    courseTitle: row.course_title,
    lessonTitle: row.lesson_title,
    questionId: row.question_id,
    answerId: row.answer_id,
    questionTitle: row.title,
    html: html(row.body_markdown),
    author: authorName(row.first_name, row.last_name),
    hidden: row.hidden_at !== null,
    reporters: row.reporters,
    reasons: row.reasons,
    lastReportedAt: new Date(row.last_reported_at).toISOString(),
  }))
}

/** Dismisses a post's open reports: the post stays as it is and leaves the queue. The course's moderators only. */
export async function dismissPostReports(db: DB, user: Person, input: z.output<typeof dismissReportsInput>) {
  const question = await moderatorOf(db, user, input.questionId)
  return { dismissed: await dismissReports(db, question.id, input.answerId, user.id) }
}

async function instructorOf(db: DB, user: Person, courseId: string) {
  await assertCourseAction(db, user.id, courseId, 'questions.answer')
}

export async function courseReports(db: DB, user: Person, courseId: string) {
  const { moderator } = await standing(db, user, courseId)
  if (!moderator) throw new DomainError('forbidden', QUESTION_MESSAGES.moderatorsOnly)
  const rows = await listReports(db, courseId)
  return rows.map((row) => ({
    questionId: row.question_id,
    answerId: row.answer_id,
    title: row.title,
    reason: row.reason,
    hidden: row.hidden_at !== null,
    createdAt: row.created_at.toISOString(),
  }))
}

export async function digestSetting(db: DB, user: Person, courseId: string) {
  await instructorOf(db, user, courseId)
  return { optedOut: await digestOptedOut(db, courseId, user.id) }
}

export async function setDigest(db: DB, user: Person, courseId: string, optOut: boolean) {
  await instructorOf(db, user, courseId)
  await setDigestOptOut(db, courseId, user.id, optOut)
  return { optedOut: optOut }
}
