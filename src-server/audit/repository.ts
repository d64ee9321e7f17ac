// The audit log: who changed what, before and after, when, and who looked a customer up. A change's record is written
// in the change's own transaction, so both commit (or roll back) together; a look-up's stands alone.
import { type ExpressionBuilder, sql } from 'kysely'
import type { Database } from '../../db/types.ts'
import type { AuditAction } from '../../src-shared/audit-actions.ts'
import type { DB } from '../kernel/db.ts'
import { pageOf } from '../kernel/paging.ts'
import { redactSecrets } from '../kernel/redact.ts'

export interface Actor {
  id: string
  email: string
}

/** What an audited action changed: the kind of thing, its id and its state around the change. */
export interface AuditSubject {
  type:
    | 'course'
    | 'category'
    | 'team_member'
    | 'invitation'
    | 'order'
    | 'service_order'
    | 'mail'
    | 'review'
    | 'creator_application'
    | 'instructor'
    | 'payout_settings'
    | 'user'
    | 'bundle'
    | 'coupon'
    | 'subscription'
    | 'contact_message'
    | 'chat_conversation'
  id: string
  before?: unknown
  after?: unknown
}

// Staff read the audit log: a secret-named field (a token, a password) is never stored, whoever passes one.
const toJson = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(redactSecrets(value)))

/** Records `action` by `actor` on `subject`; pass the caller's transaction so both commit together. */
export async function record(trx: DB, actor: Actor, action: AuditAction, subject: AuditSubject) {
  await trx
    .insertInto('audit_log')
    .values({
      actor_id: actor.id,
      actor_email: actor.email,
      action,
      entity_type: subject.type,
      entity_id: subject.id,
      before: toJson(subject.before),
      after: toJson(subject.after),
    })
    .execute()
}

/**
 * An erased person's address, wherever an entry's before or after state names it (a team member's role change, an
 * invitation), in any case, becomes `replacement`: the log keeps the account id only (decision 0053).
 */
export async function forgetAddressInAudit(trx: DB, email: string, replacement: string) {
  const pattern = email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const scrubbed = (column: 'before' | 'after') =>
    sql`case when ${sql.ref(column)}::text ~* ${pattern}
      then regexp_replace(${sql.ref(column)}::text, ${pattern}, ${replacement}, 'gi')::jsonb else ${sql.ref(column)} end`
  await sql`update audit_log set before = ${scrubbed('before')}, after = ${scrubbed('after')}
    where before::text ~* ${pattern} or after::text ~* ${pattern}`.execute(trx)
}

/** The subjects whose id is an account's: the person (a look-up, an export asked for them) and a team member. */
const ACCOUNT_SUBJECTS = ['user', 'team_member'] as const satisfies readonly AuditSubject['type'][]

/** The entries whose subject is this account: one rule for the staff page's filter and the person's export. */
const aboutAccount = (accountId: string) => (eb: ExpressionBuilder<Database, 'audit_log'>) =>
  eb.and([eb('entity_type', 'in', ACCOUNT_SUBJECTS), eb('entity_id', '=', accountId)])

/** A page of the log, newest first; with `accountId`, the entries about that account or made by it. */
export async function listAudit(db: DB, page: number, pageSize: number, accountId?: string) {
  let query = db.selectFrom('audit_log')
  if (accountId) {
    query = query.where((eb) => eb.or([aboutAccount(accountId)(eb), eb('actor_id', '=', accountId)]))
  }
  const { rows, ...paging } = await pageOf(
    query
      .select([
        'id',
        'actor_email as actorEmail',
        'action',
        'entity_type as entityType',
        'entity_id as entityId',
        'before',
        'after',
        'created_at as createdAt',
      ])
      .orderBy('created_at', 'desc')
      .orderBy('id'),
    page,
    pageSize,
  )
  return { items: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })), ...paging }
}

/** What staff did about one account, oldest first: the action and when, never who (the person's data export). */
export function auditEntriesAboutAccount(db: DB, accountId: string) {
  return db
    .selectFrom('audit_log')
    .select(['action', 'actor_id', 'created_at'])
    .where(aboutAccount(accountId))
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}
