// The studio's webhooks page (issue 36, decision 0061): only the school's owner manages its endpoints, and only
// while their plan includes webhooks (Enterprise). A member, or another school's owner, is refused by
// creators/school-access.ts; an endpoint or delivery of another school is not found.
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '../../src-shared/schemas/webhooks.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { reserveAttempt } from '../security/attempts.ts'
import { RATE_RULES, type RateLimiter } from '../security/rate-limit.ts'
import { deliveryById, listDeliveries, newEventId, recordDelivery, replayDelivery } from '../webhooks/deliveries.ts'
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  rotateSecret,
  schoolEndpoint,
  updateEndpoint,
} from '../webhooks/endpoints.ts'
import { assertEndpointUrl } from '../webhooks/targets.ts'
import { assertPlanIncludes, ownerPlanIncludes } from './creator-standing.ts'
import { actingFor } from './school-team.ts'

export interface WebhookSettings {
  /** Private and loopback URLs allowed (not in production, unless WEBHOOKS_ALLOW_PRIVATE=on). */
  allowPrivate: boolean
}

const MAX_ENDPOINTS = 20

/** The owner's school, refusing a member and a plan without webhooks. */
async function managedSchool(db: DB, userId: string, schoolId?: string) {
  const acting = await actingFor(db, userId, schoolId, 'school.manage')
  await assertPlanIncludes(db, acting.ownerId, 'webhooks')
  return acting
}

function endpointView(row: Awaited<ReturnType<typeof listEndpoints>>[number], now: Date) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since,
    /** Until when the previous secret still signs (a rotation's overlap), or null. */
    previousSecretUntil:
      row.previous_secret_expires_at && row.previous_secret_expires_at > now ? row.previous_secret_expires_at : null,
    createdAt: row.created_at,
  }
}

export async function webhooksPanel(db: DB, userId: string, settings: WebhookSettings, schoolId?: string) {
  const acting = await actingFor(db, userId, schoolId, 'school.manage')
  if (!(await ownerPlanIncludes(db, acting.ownerId, 'webhooks'))) {
    return { included: false as const, endpoints: [], eventTypes: [...WEBHOOK_EVENT_TYPES], allowHttpLoopback: false }
  }
  const now = clock.now()
  const rows = await listEndpoints(db, acting.schoolId)
  return {
    included: true as const,
    endpoints: rows.map((row) => endpointView(row, now)),
    eventTypes: [...WEBHOOK_EVENT_TYPES],
    allowHttpLoopback: settings.allowPrivate,
  }
}

export async function addWebhookEndpoint(
  db: DB,
  userId: string,
  input: { url: string; description: string; eventTypes: string[] },
  settings: WebhookSettings,
) {
  const { schoolId } = await managedSchool(db, userId)
  const url = assertEndpointUrl(input.url, settings.allowPrivate)
  if ((await listEndpoints(db, schoolId)).length >= MAX_ENDPOINTS) {
    throw new DomainError('precondition', `A school has at most ${MAX_ENDPOINTS} endpoints`)
  }
  const row = await createEndpoint(db, {
    schoolId,
    url: url.toString(),
    description: input.description,
    eventTypes: [...new Set(input.eventTypes)],
  })
  return { id: row.id, secret: row.secret }
}

export async function editWebhookEndpoint(
  db: DB,
  userId: string,
  input: { endpointId: string; description: string; eventTypes: string[]; enabled: boolean },
) {
  const { schoolId } = await managedSchool(db, userId)
  await schoolEndpoint(db, schoolId, input.endpointId)
  await updateEndpoint(db, input.endpointId, { ...input, eventTypes: [...new Set(input.eventTypes)] })
}

export async function removeWebhookEndpoint(db: DB, userId: string, endpointId: string) {
  const { schoolId } = await managedSchool(db, userId)
  await schoolEndpoint(db, schoolId, endpointId)
  await deleteEndpoint(db, endpointId)
}

export async function revealWebhookSecret(db: DB, userId: string, endpointId: string) {
  const { schoolId } = await managedSchool(db, userId)
  const endpoint = await schoolEndpoint(db, schoolId, endpointId)
  return { secret: endpoint.secret }
}

export async function rotateWebhookSecret(db: DB, userId: string, endpointId: string) {
  const { schoolId } = await managedSchool(db, userId)
  await schoolEndpoint(db, schoolId, endpointId)
  return { secret: await rotateSecret(db, endpointId) }
}

export async function webhookDeliveries(db: DB, userId: string, endpointId: string) {
  const { schoolId } = await managedSchool(db, userId)
  await schoolEndpoint(db, schoolId, endpointId)
  const rows = await listDeliveries(db, endpointId)
  return rows.map((row) => ({
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.delivered_at
      ? ('delivered' as const)
      : row.failed_at
        ? ('failed' as const)
        : row.attempts > 0
          ? ('retrying' as const)
          : ('pending' as const),
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.delivered_at || row.failed_at ? null : row.next_attempt_at,
    isReplay: row.replay_of !== null,
    createdAt: row.created_at,
  }))
}

export const WEBHOOK_TOO_MANY_SENDS = 'Too many test events and replays. Please wait a few minutes and try again.'

/**
 * Test events and replays are sent on the owner's click, and each one not answered is retried for 3 days: counted
 * per school (decision 0114), so a script cannot queue deliveries, and requests to an address, without end.
 */
async function countManualSend(limiter: RateLimiter, schoolId: string) {
  await reserveAttempt(
    limiter,
    [{ rule: RATE_RULES.webhookManualSends, key: `webhook-manual:${schoolId}` }],
    WEBHOOK_TOO_MANY_SENDS,
  )
}

export async function replayWebhookDelivery(db: DB, limiter: RateLimiter, userId: string, deliveryId: string) {
  const { schoolId } = await managedSchool(db, userId)
  const delivery = await deliveryById(db, deliveryId)
  if (!delivery) throw new DomainError('not_found', 'Delivery not found')
  const endpoint = await schoolEndpoint(db, schoolId, delivery.endpoint_id).catch(() => {
    throw new DomainError('not_found', 'Delivery not found')
  })
  if (!endpoint.enabled) throw new DomainError('precondition', 'Enable the endpoint before replaying to it')
  await countManualSend(limiter, schoolId)
  return { deliveryId: await replayDelivery(db, deliveryId) }
}

export async function sendWebhookTest(db: DB, limiter: RateLimiter, userId: string, endpointId: string) {
  const { schoolId } = await managedSchool(db, userId)
  const endpoint = await schoolEndpoint(db, schoolId, endpointId)
  if (!endpoint.enabled) throw new DomainError('precondition', 'Enable the endpoint before sending to it')
  await countManualSend(limiter, schoolId)
  const deliveryId = await recordDelivery(db, endpointId, {
    id: newEventId(),
    type: WEBHOOK_TEST_EVENT,
    timestamp: clock.now(),
    data: { schoolId, message: 'A test event from SkillForge' },
  })
  return { deliveryId }
}
