// The studio's webhooks page (issue 36, decision 0061): only the school's owner manages its endpoints, and only
// while their plan includes webhooks (Enterprise). A member, or another school's owner, is refused by
// creators/school-access.ts; an endpoint or delivery of another school is not found. Adding an endpoint, revealing
// and rotating its secret mail the owner (decision 0141), after the router checked a fresh proof.
import { formatDate } from '../../src-shared/dates.ts'
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '../../src-shared/schemas/webhooks.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { reserveAttempt } from '../security/attempts.ts'
import { RATE_RULES, type RateLimiter } from '../security/rate-limit.ts'
import { userContact } from '../users/contact.ts'
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
import { mailSchoolOwner } from './school-owner-mail.ts'
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

export const WEBHOOK_SECRET_MAIL_KIND = 'school-webhook-secret'

type SecretChange = 'added' | 'revealed' | 'rotated'

const SECRET_CHANGE_WORDS: Record<SecretChange, { subject: string; did: string; after: string }> = {
  added: {
    subject: 'A new webhook endpoint',
    did: 'added a webhook endpoint',
    after: 'It hears of these events until it is removed; its signing secret was shown on the page.',
  },
  revealed: {
    subject: 'A webhook signing secret was revealed',
    did: 'revealed the signing secret of a webhook endpoint',
    after: 'Whoever holds the secret can sign messages that your receiver will take for ours.',
  },
  rotated: {
    subject: 'A webhook signing secret was rotated',
    did: 'rotated the signing secret of a webhook endpoint',
    after: 'The new secret was shown on the page; the previous one keeps signing for 24 hours.',
  },
}

/** An endpoint's address in a mail: without its query, where some receivers keep a token of their own. */
function withoutQuery(url: string) {
  const parsed = new URL(url)
  const hidden = parsed.search ? '?…' : ''
  parsed.search = ''
  parsed.hash = ''
  return `${parsed.toString()}${hidden}`
}

/**
 * Tells the school's owner that an endpoint was added or its secret shown (who, when, the endpoint; never the
 * secret), in the transaction of the change: an endpoint, or a secret, taken with a stolen session is then seen, and
 * removed or rotated, at once (decision 0141, as decision 0131 does for API keys).
 */
async function mailSecretShown(
  db: DB,
  userId: string,
  change: SecretChange,
  endpoint: { schoolId: string; url: string; description: string; eventTypes: string[] },
  publicUrl: string,
) {
  const by = (await userContact(db, userId))?.email ?? 'Someone'
  const words = SECRET_CHANGE_WORDS[change]
  await mailSchoolOwner(db, endpoint.schoolId, (school) => ({
    kind: WEBHOOK_SECRET_MAIL_KIND,
    subject: `${words.subject} for ${school}`,
    lines: [
      `${by} ${words.did} for ${school} on ${formatDate(clock.now(), 'mediumTime')}:`,
      '',
      `  url:         ${withoutQuery(endpoint.url)}`,
      ...(endpoint.description ? [`  description: ${endpoint.description}`] : []),
      `  events:      ${endpoint.eventTypes.join(', ')}`,
      '',
      words.after,
      `If you did not expect it, remove the endpoint or rotate its secret now, and change your password: ${publicUrl}/studio/webhooks`,
    ],
  }))
}

export async function addWebhookEndpoint(
  db: DB,
  userId: string,
  input: { url: string; description: string; eventTypes: string[] },
  settings: WebhookSettings,
  publicUrl: string,
) {
  const { schoolId } = await managedSchool(db, userId)
  const url = assertEndpointUrl(input.url, settings.allowPrivate)
  if ((await listEndpoints(db, schoolId)).length >= MAX_ENDPOINTS) {
    throw new DomainError('precondition', `A school has at most ${MAX_ENDPOINTS} endpoints`)
  }
  const endpoint = {
    schoolId,
    url: url.toString(),
    description: input.description,
    eventTypes: [...new Set(input.eventTypes)],
  }
  const row = await inTransaction(db, async (trx) => {
    const made = await createEndpoint(trx, endpoint)
    await mailSecretShown(trx, userId, 'added', endpoint, publicUrl)
    return made
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

/** What the owner's mail names of an endpoint. */
const mailedEndpoint = (row: Awaited<ReturnType<typeof schoolEndpoint>>) => ({
  schoolId: row.school_id,
  url: row.url,
  description: row.description,
  eventTypes: row.event_types,
})

export async function revealWebhookSecret(db: DB, userId: string, endpointId: string, publicUrl: string) {
  const { schoolId } = await managedSchool(db, userId)
  const endpoint = await schoolEndpoint(db, schoolId, endpointId)
  // The mail is queued before the secret leaves: no secret is shown that the owner is not told of.
  await mailSecretShown(db, userId, 'revealed', mailedEndpoint(endpoint), publicUrl)
  return { secret: endpoint.secret }
}

export async function rotateWebhookSecret(db: DB, userId: string, endpointId: string, publicUrl: string) {
  const { schoolId } = await managedSchool(db, userId)
  const endpoint = await schoolEndpoint(db, schoolId, endpointId)
  const secret = await inTransaction(db, async (trx) => {
    const rotated = await rotateSecret(trx, endpointId)
    await mailSecretShown(trx, userId, 'rotated', mailedEndpoint(endpoint), publicUrl)
    return rotated
  })
  return { secret }
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
