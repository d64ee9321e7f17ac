// The link a test's person follows from their mailbox: the newest mail to an address (of one kind, when given) in the
// outbox, polled until the server has queued it.
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { expect } from './fixtures.ts'

/** The path (with its token) of the newest link to `path` mailed to an address. */
export async function mailedLink(db: Kysely<Database>, to: string, path: string, kind?: string): Promise<string> {
  let query = db.selectFrom('mail_outbox').select('text_body').where('to_address', '=', to)
  if (kind) query = query.where('kind', '=', kind)
  await expect.poll(async () => (await query.execute()).length).toBeGreaterThan(0)
  const mail = await query.orderBy('created_at', 'desc').executeTakeFirstOrThrow()
  const match = mail.text_body.match(new RegExp(`https?://[^/]+(${path}\\?token=[a-z0-9]+)`))
  expect(match, `a ${path} link in the mail`).not.toBeNull()
  return match![1]!
}
