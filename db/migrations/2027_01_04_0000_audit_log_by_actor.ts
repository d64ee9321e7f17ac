// Frozen: /admin/audit finds one account's entries, those about it (entity_type, entity_id: indexed since the log
// began) and those it made (actor_id, indexed here), so neither side reads the whole log as it grows with every
// look-up of a customer. Never import application code.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_id', 'created_at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_log_actor_idx').execute()
}
