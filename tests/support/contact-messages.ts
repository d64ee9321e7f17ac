// A message to support written straight into its table, as /contact keeps one (due in a day), for the tests of what
// staff read of it: the support inbox's search and the customer page. Shared by integration and end-to-end tests.
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'

export async function contactMessage(
  db: Kysely<Database>,
  email: string,
  subject: string,
  options: { name?: string; message?: string; answered?: boolean } = {},
): Promise<string> {
  const now = Date.now()
  const row = await db
    .insertInto('contact_messages')
    .values({
      name: options.name ?? 'Writer',
      email,
      subject,
      message: options.message ?? 'Where is my invoice?',
      reply_due_at: new Date(now + 24 * 3_600_000),
      answered_at: options.answered ? new Date(now) : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}
