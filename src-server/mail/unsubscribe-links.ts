// One-click unsubscribe links of the news a person gets without asking for each mail (their courses' news, decision
// 0156): one random link per mail, stored as its SHA-256 with whose news it stops. The link goes to the address
// mail/unsubscribe.ts serves (the same as a cart reminder's); the flow that uses it turns the news off.
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { randomToken, sha256Hex } from '../kernel/random-token.ts'
import { oneClickUnsubscribeUrl } from './unsubscribe.ts'

export type MailList = 'course_news'

/** A new link that stops `list` for this person, as the address to put in the mail. */
export async function issueUnsubscribeLink(db: DB, userId: string, list: MailList, origin: string): Promise<string> {
  // 25 bytes: the 40-character token a cart reminder's link has too, so one address and one input rule serve both.
  const token = randomToken(25)
  await db
    .insertInto('mail_unsubscribe_links')
    .values({ token_hash: sha256Hex(token), user_id: userId, list })
    .execute()
  return oneClickUnsubscribeUrl(origin, token)
}

/** Whose news, and which, a link stops; null for a link we did not make (or purged with its mail's copy). */
export function unsubscribeLinkOf(db: DB, token: string) {
  return db
    .selectFrom('mail_unsubscribe_links')
    .select(['user_id as userId', 'list'])
    .where('token_hash', '=', sha256Hex(token))
    .executeTakeFirst()
}

/** The retention job: links older than the copies of the mails they came in (src-shared/retention.ts). */
export async function purgeOldUnsubscribeLinks(db: DB, before: Date = clock.now()): Promise<number> {
  const result = await db.deleteFrom('mail_unsubscribe_links').where('created_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}
