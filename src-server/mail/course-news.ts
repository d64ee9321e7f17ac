// The line under a mail of a person's courses' news (a drip section opening, a live session scheduled): why it came
// and how to stop it — in one click (the mail's List-Unsubscribe, RFC 8058), or on the account page. Those mails go
// only to people who take that news by e-mail (users.course_update_mails).
import type { DB } from '../kernel/db.ts'
import type { OutgoingMail } from './outbox.ts'
import { issueUnsubscribeLink } from './unsubscribe-links.ts'

/**
 * What a course news mail to this person carries besides its own words: the footer, and the List-Unsubscribe address
 * (a link of its own, decision 0156), on the site the mail links to (a school's own domain when it has one).
 */
export async function courseNewsEnding(
  db: DB,
  userId: string,
  siteUrl: string,
): Promise<{ footer: string } & Pick<OutgoingMail, 'listUnsubscribe'>> {
  const site = siteUrl.replace(/\/$/, '')
  const unsubscribe = await issueUnsubscribeLink(db, userId, 'course_news', site)
  return {
    footer: `\n--\nYou get this because you take this course. Stop e-mails about your courses' news: ${unsubscribe}\nOr turn off "Course news by e-mail" under E-mail preferences: ${site}/account\n`,
    listUnsubscribe: unsubscribe,
  }
}
