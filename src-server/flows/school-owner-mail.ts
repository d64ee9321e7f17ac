// A notice to a school's owner about the school itself (a DNS proof that lapsed: decisions 0063, 0091; a new API key:
// decision 0131), put in the mail outbox in the caller's transaction, so it is sent exactly when what it tells of commits.
import { schoolById } from '../creators/schools.ts'
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'

export interface SchoolOwnerNotice {
  kind: string
  subject: string
  /** The plain-text body's lines. */
  lines: string[]
  /** The TXT record to publish again (after the lines), what to press, and the page (absolute URL) to press it on. */
  record?: { name: string; value: string; press: string; page: string }
}

/** Mails the school's owner the notice `compose` writes for the school's name; nothing if the school or owner is gone. */
export async function mailSchoolOwner(
  db: DB,
  schoolId: string,
  compose: (schoolName: string) => SchoolOwnerNotice,
): Promise<void> {
  const school = await schoolById(db, schoolId)
  if (!school) return
  const owner = await db.selectFrom('users').select('email').where('id', '=', school.ownerId).executeTakeFirst()
  if (!owner) return
  const { kind, subject, lines, record } = compose(school.name)
  const text = record
    ? [
        ...lines,
        '',
        `To verify it again, publish this TXT record and press ${record.press}:`,
        `  name:  ${record.name}`,
        `  value: ${record.value}`,
        record.page,
        '',
      ]
    : [...lines, '']
  await enqueueMail(db, { kind, to: owner.email, subject, text: text.join('\n') })
}
