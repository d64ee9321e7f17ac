// Frozen: a mail's sender name (issue 36, decision 0063): a white-label school's order mails go out under its name
// ("Brandt Institute <no-reply@…>") instead of MAIL_FROM's; the address stays MAIL_FROM's (the platform sends them).
// Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('mail_outbox')
    .addColumn('from_name', 'text', (c) => c.check(sql`char_length(from_name) between 1 and 100`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('from_name').execute()
}
