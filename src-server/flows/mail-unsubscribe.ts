// The one-click unsubscribe address of our mails (RFC 8058; http/mail-unsubscribe.ts, and the pages a person following
// the link lands on): a cart reminder's link settles that buyer's reminders (issue 32); a course news mail's link stops
// that course's news for the person (decision 0156); a question digest's link stops that course's digest for the
// instructor. The token alone says which and whose.

import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { setDigestOptOut } from '../learning/questions.ts'
import { unsubscribeLinkOf } from '../mail/unsubscribe-links.ts'
import { setCourseNewsWanted } from '../users/course-news.ts'
import { CART_REMINDER_MESSAGES, unsubscribeFromReminders } from './checkout-recovery.ts'

export const QUESTION_DIGEST_UNSUBSCRIBED =
  'You will no longer get the daily digest of this course’s new questions. You can turn it on again under the course’s questions in the studio.'
export const COURSE_NEWS_UNSUBSCRIBED =
  'You will no longer get this course’s news by e-mail. Your other courses’ news still comes: you can change either under E-mail preferences on your account page.'

/**
 * The page a person following the link lands on, with the token: the course mails' one, told which kind the link
 * stops (its `list`, no secret), for their links; else the cart reminders'.
 */
export async function unsubscribePageOf(db: DB, token: string): Promise<string> {
  const link = await unsubscribeLinkOf(db, token)
  return link ? `/mail/unsubscribe?list=${link.list}&token=${token}` : `/cart/reminders/unsubscribe?token=${token}`
}

/**
 * A course news mail's or a question digest's link: that course's mails of its kind stop for that person (again:
 * nothing changes).
 */
export async function stopCourseMailByLink(db: DB, token: string) {
  const link = await unsubscribeLinkOf(db, token)
  if (!link) throw new DomainError('not_found', CART_REMINDER_MESSAGES.badUnsubscribeLink)
  return stopCourseMail(db, link)
}

async function stopCourseMail(db: DB, link: NonNullable<Awaited<ReturnType<typeof unsubscribeLinkOf>>>) {
  if (link.list === 'question_digest') {
    await setDigestOptOut(db, link.courseId, link.userId, true)
    return { message: QUESTION_DIGEST_UNSUBSCRIBED }
  }
  await setCourseNewsWanted(db, link.userId, link.courseId, false)
  return { message: COURSE_NEWS_UNSUBSCRIBED }
}

/** The mail client's one-click POST, whichever mail the link came in. */
export async function unsubscribeByLink(db: DB, token: string) {
  const link = await unsubscribeLinkOf(db, token)
  return link ? stopCourseMail(db, link) : unsubscribeFromReminders(db, token)
}
