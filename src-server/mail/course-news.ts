// The line under a mail of a course's news (a drip section opening, a live session scheduled): why it came and how to
// stop it — this course's in one click (the mail's List-Unsubscribe, RFC 8058), or all of it on the account page. Those
// mails go only to people who take that news by e-mail (users.course_update_mails, users/course-news.ts).
import type { DB } from '../kernel/db.ts'
import type { OutgoingMail } from './outbox.ts'
import { issueUnsubscribeLink } from './unsubscribe-links.ts'

/**
 * What a mail of this course's news to this person carries besides its own words: the footer, and the List-Unsubscribe
 * address (a link of its own that stops this course's news, decision 0156), on the site the mail links to (a school's
 * own domain when it has one).
 */
export async function courseNewsEnding(
  db: DB,
  to: { userId: string; courseId: string },
  siteUrl: string,
): Promise<{ footer: string } & Pick<OutgoingMail, 'listUnsubscribe'>> {
  const site = siteUrl.replace(/\/$/, '')
  const unsubscribe = await issueUnsubscribeLink(db, { ...to, list: 'course_news' }, site)
  return {
    footer: `\n--\nYou get this because you take this course. Stop e-mails about this course: ${unsubscribe}\nTo stop all your courses' news, turn off "Course news by e-mail" under E-mail preferences: ${site}/account\n`,
    listUnsubscribe: unsubscribe,
  }
}
