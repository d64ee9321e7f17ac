// A school's webhook endpoints (decision 0061): the only writer of webhook_endpoints.
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { newWebhookSecret } from './secrets.ts'

/** How long the secret before a rotation keeps signing deliveries. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000

const COLUMNS = [
  'id',
  'school_id',
  'url',
  'description',
  'event_types',
  'secret',
  'previous_secret',
  'previous_secret_expires_at',
  'enabled',
  'disabled_reason',
  'failing_since',
  'created_at',
  'updated_at',
] as const

export async function listEndpoints(db: DB, schoolId: string) {
  return db
    .selectFrom('webhook_endpoints')
    .select(COLUMNS)
    .where('school_id', '=', schoolId)
    .orderBy('created_at')
    .execute()
}

export async function endpointById(db: DB, endpointId: string) {
  return db.selectFrom('webhook_endpoints').select(COLUMNS).where('id', '=', endpointId).executeTakeFirst()
}

/** The school's endpoint, or not found (another school's endpoint is not revealed). */
export async function schoolEndpoint(db: DB, schoolId: string, endpointId: string) {
  const endpoint = await endpointById(db, endpointId)
  if (!endpoint || endpoint.school_id !== schoolId) throw new DomainError('not_found', 'Endpoint not found')
  return endpoint
}

export async function createEndpoint(
  db: DB,
  input: { schoolId: string; url: string; description: string; eventTypes: string[] },
) {
  return db
    .insertInto('webhook_endpoints')
    .values({
      school_id: input.schoolId,
      url: input.url,
      description: input.description,
      event_types: input.eventTypes,
      secret: newWebhookSecret(),
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow()
}

export async function updateEndpoint(
  db: DB,
  endpointId: string,
  values: { description: string; eventTypes: string[]; enabled: boolean },
) {
  await db
    .updateTable('webhook_endpoints')
    .set({
      description: values.description,
      event_types: values.eventTypes,
      enabled: values.enabled,
      // Enabling again starts a fresh failure window.
      ...(values.enabled
        ? { disabled_reason: null, failing_since: null }
        : { disabled_reason: 'Disabled by the owner' }),
      updated_at: clock.now(),
    })
    .where('id', '=', endpointId)
    .execute()
}

export async function deleteEndpoint(db: DB, endpointId: string) {
  await db.deleteFrom('webhook_endpoints').where('id', '=', endpointId).execute()
}

/** A new secret; the current one keeps signing (beside it) for 24 hours. */
export async function rotateSecret(db: DB, endpointId: string, now = clock.now()) {
  const endpoint = await endpointById(db, endpointId)
  if (!endpoint) throw new DomainError('not_found', 'Endpoint not found')
  const secret = newWebhookSecret()
  await db
    .updateTable('webhook_endpoints')
    .set({
      secret,
      previous_secret: endpoint.secret,
      previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS),
      updated_at: now,
    })
    .where('id', '=', endpointId)
    .execute()
  return secret
}

/** The secrets a delivery is signed with now: the current one, and the previous one during its overlap. */
export function signingSecrets(
  endpoint: { secret: string; previous_secret: string | null; previous_secret_expires_at: Date | null },
  now = clock.now(),
): string[] {
  const previous =
    endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now
      ? [endpoint.previous_secret]
      : []
  return [endpoint.secret, ...previous]
}

/** After a success: the endpoint is no longer failing. */
export async function markEndpointHealthy(db: DB, endpointId: string) {
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', '=', endpointId)
    .where('failing_since', 'is not', null)
    .execute()
}

/** After a failure: when it started failing (set to `since` if it was healthy). */
export async function markEndpointFailing(db: DB, endpointId: string, since: Date): Promise<Date> {
  const row = await db
    .updateTable('webhook_endpoints')
    .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(since)) }))
    .where('id', '=', endpointId)
    .returning('failing_since')
    .executeTakeFirst()
  return row?.failing_since ?? since
}

/** Disables the endpoint with a reason; true when this call disabled it (not already disabled). */
export async function disableEndpoint(db: DB, endpointId: string, reason: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, updated_at: now })
    .where('id', '=', endpointId)
    .where('enabled', '=', true)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** Disables every enabled endpoint of the school with a reason (its owner's account erased). */
export async function disableSchoolEndpoints(db: DB, schoolId: string, reason: string, now: Date): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, updated_at: now })
    .where('school_id', '=', schoolId)
    .where('enabled', '=', true)
    .execute()
}
