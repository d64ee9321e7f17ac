// The audit log: who changed what, before and after, when. Always written with the change's own transaction,
// so a change and its record commit (or roll back) together.
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'

export interface Actor {
  id: string
  email: string
}

export interface AuditEntry {
  action: string
  entityType: 'course' | 'category' | 'team_member' | 'invitation' | 'order'
  entityId: string
  before?: unknown
  after?: unknown
}

const toJson = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value))

export async function writeAudit(trx: Transaction<Database> | Kysely<Database>, actor: Actor, entry: AuditEntry) {
  await trx
    .insertInto('audit_log')
    .values({
      actor_id: actor.id,
      actor_email: actor.email,
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: entry.entityId,
      before: toJson(entry.before),
      after: toJson(entry.after),
    })
    .execute()
}

export async function listAudit(db: Kysely<Database>, page: number, pageSize: number) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('audit_log')
      .select(['id', 'actor_email', 'action', 'entity_type', 'entity_id', 'before', 'after', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return {
    items: rows.map((row) => ({
      id: row.id,
      actorEmail: row.actor_email,
      action: row.action,
      entityType: row.entity_type,
      entityId: row.entity_id,
      before: row.before,
      after: row.after,
      createdAt: row.created_at.toISOString(),
    })),
    total: Number(total.n),
  }
}
