// Frozen: a gift's recipient (decision 0146). `recipient_owned_at`: when a claim found that the account claiming it
// already held the gifted course; the gift stays unclaimed for the giver to give elsewhere, and the giver is told once
// (a resend to another address clears it). The index serves "a gift waiting for you": the unclaimed, mailed gifts to
// a signed-in account's address (recipient addresses are stored lower-cased). Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table gifts add column recipient_owned_at timestamptz`.execute(db)
  await sql`create index gifts_waiting_idx on gifts (recipient_email)
    where claimed_at is null and mailed_at is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists gifts_waiting_idx`.execute(db)
  await sql`alter table gifts drop column recipient_owned_at`.execute(db)
}
