// The one-click unsubscribe address of our mails (RFC 8058; http/mail-unsubscribe.ts, and the pages a person following
// the link lands on): a cart reminder's link settles that buyer's reminders (issue 32); a course news mail's link stops
// that course's news for the person (decision 0156). The token alone says which and whose.

import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { unsubscribeLinkOf } from '../mail/unsubscribe-links.ts'
import { setCourseNewsWanted } from '../users/course-news.ts'
import { CART_REMINDER_MESSAGES, unsubscribeFromReminders } from './checkout-recovery.ts'

export const COURSE_NEWS_UNSUBSCRIBED =
  'You will no longer get this course’s news by e-mail. Your other courses’ news still comes: you can change either under E-mail preferences on your account page.'

/** Which page a person following the link lands on: the course news one for its links, else the cart reminders'. */
export async function unsubscribePageOf(
  db: DB,
  token: string,
): Promise<'/mail/unsubscribe' | '/cart/reminders/unsubscribe'> {
  return (await unsubscribeLinkOf(db, token)) ? '/mail/unsubscribe' : '/cart/reminders/unsubscribe'
}

/** A course news mail's link: that course's news stops for that person (again: nothing changes). */
export async function stopCourseNewsByLink(db: DB, token: string) {
  const link = await unsubscribeLinkOf(db, token)
  if (!link) throw new DomainError('not_found', CART_REMINDER_MESSAGES.badUnsubscribeLink)
  await setCourseNewsWanted(db, link.userId, link.courseId, false)
  return { message: COURSE_NEWS_UNSUBSCRIBED }
}

/** The mail client's one-click POST, whichever mail the link came in. */
export async function unsubscribeByLink(db: DB, token: string) {
  if (await unsubscribeLinkOf(db, token)) return stopCourseNewsByLink(db, token)
  return unsubscribeFromReminders(db, token)
}
