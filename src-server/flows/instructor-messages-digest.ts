// The daily digest of messages to and from instructors (issue 34): a daily job (jobs/registry.ts 'messages.digest')
// mails each person who chose it (course_message_mail_settings) the conversations with messages for them from the
// previous UTC day that they have not read yet; the course_message_digests row makes it once per person and day.
import { sql } from 'kysely'
import { mailDigest, memberThreadLink, studioThreadLink } from '../instructor-messages/mails.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { courseSiteUrls } from './school-domain.ts'

const DAY_MS = 86_400_000

interface DigestRow {
  user_id: string
  email: string
  first_name: string
  thread_id: string
  course_id: string
  course_title: string
  as_member: boolean
  n: string
}

export async function sendMessageDigests(db: DB, publicUrl: string, now = clock.now()): Promise<number> {
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
  const start = new Date(end.getTime() - DAY_MS)
  const day = start.toISOString().slice(0, 10)
  // Readers of each new message: the member for an instructor's message, each instructor for the member's.
  const { rows } = await sql<DigestRow>`
    with readers as (
      select t.member_id as user_id, t.id as thread_id, t.course_id, true as as_member, m.created_at
        from course_messages m join course_message_threads t on t.id = m.thread_id
        where m.from_instructor and m.created_at >= ${start} and m.created_at < ${end}
      union all
      select ci.user_id, t.id, t.course_id, false, m.created_at
        from course_messages m join course_message_threads t on t.id = m.thread_id
        join course_instructors ci on ci.course_id = t.course_id
        where not m.from_instructor and m.created_at >= ${start} and m.created_at < ${end}
    )
    select r.user_id, u.email, u.first_name, r.thread_id, r.course_id, c.title as course_title, r.as_member,
           count(*)::text as n
      from readers r
      join course_message_mail_settings s on s.user_id = r.user_id and s.daily_digest
      join users u on u.id = r.user_id
      join courses c on c.id = r.course_id
      left join course_message_reads rd on rd.thread_id = r.thread_id and rd.user_id = r.user_id
      where rd.read_at is null or r.created_at > rd.read_at
      group by r.user_id, u.email, u.first_name, r.thread_id, r.course_id, c.title, r.as_member
      order by r.user_id, c.title`.execute(db)
  const byUser = new Map<string, DigestRow[]>()
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row])
  let sent = 0
  // A learner's conversation links to the course's school's own domain when it has a verified one (decision 0063);
  // the studio's stay on the platform's host, where the team signs in.
  const siteUrlOf = courseSiteUrls(db, publicUrl)
  for (const [userId, list] of byUser) {
    const first = list[0] as DigestRow
    const lines = await Promise.all(
      list.map(async (row) => ({
        text: `${row.n} unread in ${row.course_title}`,
        link: row.as_member
          ? memberThreadLink(await siteUrlOf(row.course_id), row.course_id)
          : studioThreadLink(publicUrl, row.thread_id),
      })),
    )
    const digest = { userId, email: first.email, firstName: first.first_name, day, lines }
    if (await db.transaction().execute((trx) => mailDigest(trx, digest))) sent++
  }
  return sent
}
