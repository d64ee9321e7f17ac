// One-click unsubscribe links of the news a person gets without asking for each mail (a course's news, decision 0156):
// one random link per mail, stored as its SHA-256 with whose news of which course it stops. The link goes to the
// address mail/unsubscribe.ts serves (the same as a cart reminder's); the flow that uses it stops that course's news.
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { randomToken, sha256Hex } from '../kernel/random-token.ts'
import { oneClickUnsubscribeUrl } from './unsubscribe.ts'

export type MailList = 'course_news' | 'question_digest'

/** A new link that stops `list` of this course for this person, as the address to put in the mail. */
export async function issueUnsubscribeLink(
  db: DB,
  link: { userId: string; list: MailList; courseId: string },
  origin: string,
): Promise<string> {
  // 25 bytes: the 40-character token a cart reminder's link has too, so one address and one input rule serve both.
  const token = randomToken(25)
  await db
    .insertInto('mail_unsubscribe_links')
    .values({ token_hash: sha256Hex(token), user_id: link.userId, list: link.list, course_id: link.courseId })
    .execute()
  return oneClickUnsubscribeUrl(origin, token)
}

/** Whose news, and of which course, a link stops; undefined for a link we did not make (or purged with its mail). */
export function unsubscribeLinkOf(db: DB, token: string) {
  return db
    .selectFrom('mail_unsubscribe_links')
    .select(['user_id as userId', 'list', 'course_id as courseId'])
    .where('token_hash', '=', sha256Hex(token))
    .executeTakeFirst()
}

/** The retention job: links older than the copies of the mails they came in (src-shared/retention.ts). */
export async function purgeOldUnsubscribeLinks(db: DB, before: Date = clock.now()): Promise<number> {
  const result = await db.deleteFrom('mail_unsubscribe_links').where('created_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}
