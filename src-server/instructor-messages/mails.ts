// Mails of messages to instructors (issue 34), queued in the outbox in the message's transaction. Each carries a link
// to the conversation on the site: replies are written there, never by e-mail (no Reply-To, and the mail says so).
// People who chose the daily digest get one mail a day instead (digest.ts in flows).
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { staffEmail } from '../mail/staff-address.ts'

const base = (publicUrl: string) => publicUrl.replace(/\/$/, '')
export const memberThreadLink = (publicUrl: string, courseId: string) =>
  `${base(publicUrl)}/account/messages/${encodeURIComponent(courseId)}`
export const studioThreadLink = (publicUrl: string, threadId: string) =>
  `${base(publicUrl)}/studio/messages/${threadId}`
export const staffThreadLink = (publicUrl: string, threadId: string) => `${base(publicUrl)}/admin/messages/${threadId}`
const NO_REPLY = 'Please answer on the site: replies to this e-mail are not read.'

const excerpt = (body: string) => (body.length > 600 ? `${body.slice(0, 600)}…` : body)

/** The course's instructors who get a mail per message (not those who chose the daily digest), except the author. */
function instructorsToMail(trx: DB, courseId: string) {
  return trx
    .selectFrom('course_instructors as ci')
    .innerJoin('users as u', 'u.id', 'ci.user_id')
    .leftJoin('course_message_mail_settings as s', 's.user_id', 'ci.user_id')
    .select(['u.id', 'u.email', 'u.first_name'])
    .where('ci.course_id', '=', courseId)
    .where((eb) => eb.or([eb('s.daily_digest', 'is', null), eb('s.daily_digest', '=', false)]))
    .execute()
}

export async function mailInstructors(
  trx: DB,
  message: { courseId: string; courseTitle: string; threadId: string; memberName: string; body: string },
  publicUrl: string,
  /** A house course: nobody teaches it, so the staff address gets the mail with the admin page's link (0140). */
  houseCourse = false,
) {
  if (houseCourse) {
    await enqueueMail(trx, {
      kind: 'instructor_message',
      to: staffEmail(),
      subject: `New message from ${message.memberName} about ${message.courseTitle}`,
      text: `${message.memberName} wrote about ${message.courseTitle}, a house course staff answer:\n\n${excerpt(message.body)}\n\nRead and answer: ${staffThreadLink(publicUrl, message.threadId)}\n\n${NO_REPLY}\n`,
    })
    return
  }
  for (const person of await instructorsToMail(trx, message.courseId)) {
    await enqueueMail(trx, {
      kind: 'instructor_message',
      to: person.email,
      subject: `New message from ${message.memberName} about ${message.courseTitle}`,
      text: `Hi ${person.first_name || 'there'},\n\n${message.memberName} wrote about ${message.courseTitle}:\n\n${excerpt(message.body)}\n\nRead and answer: ${studioThreadLink(publicUrl, message.threadId)}\n\n${NO_REPLY}\nTo get one e-mail a day instead, choose the daily digest in your studio inbox.\n`,
    })
  }
}

export async function mailMember(
  trx: DB,
  message: { courseId: string; courseTitle: string; memberId: string; instructorName: string; body: string },
  publicUrl: string,
) {
  const member = await trx
    .selectFrom('users as u')
    .leftJoin('course_message_mail_settings as s', 's.user_id', 'u.id')
    .select(['u.email', 'u.first_name', 's.daily_digest'])
    .where('u.id', '=', message.memberId)
    .executeTakeFirst()
  if (!member || member.daily_digest) return
  await enqueueMail(trx, {
    kind: 'instructor_message_reply',
    to: member.email,
    subject: `${message.instructorName} answered your message about ${message.courseTitle}`,
    text: `Hi ${member.first_name || 'there'},\n\n${message.instructorName} answered about ${message.courseTitle}:\n\n${excerpt(message.body)}\n\nRead and reply: ${memberThreadLink(publicUrl, message.courseId)}\n\n${NO_REPLY}\nTo get one e-mail a day instead, choose the daily digest on your messages page.\n`,
  })
}

/** One person's digest of one UTC day (claimed by the course_message_digests row: once, however often it runs). */
export async function mailDigest(
  trx: DB,
  digest: { userId: string; email: string; firstName: string; day: string; lines: { text: string; link: string }[] },
): Promise<boolean> {
  const total = digest.lines.length
  const claimed = await trx
    .insertInto('course_message_digests')
    .values({ user_id: digest.userId, day: digest.day, messages: total })
    .onConflict((oc) => oc.columns(['user_id', 'day']).doNothing())
    .returning('day')
    .executeTakeFirst()
  if (!claimed) return false
  const list = digest.lines.map((line) => `- ${line.text}\n  ${line.link}`).join('\n')
  await enqueueMail(trx, {
    kind: 'instructor_message_digest',
    to: digest.email,
    subject: `Unread messages from ${digest.day}`,
    text: `Hi ${digest.firstName || 'there'},\n\nConversations with new messages on ${digest.day}:\n\n${list}\n\n${NO_REPLY}\n`,
  })
  return true
}
