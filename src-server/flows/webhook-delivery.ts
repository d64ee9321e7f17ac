// One attempt at a webhook delivery (the 'webhooks.deliver' job, decision 0061): signed per Standard Webhooks with
// the endpoint's secret (and, for 24 hours after a rotation, the previous one too), POSTed with a 5-second limit.
// A failure schedules the next attempt with back-off; a delivery gives up after 3 days, and an endpoint that has
// failed for 3 days without a success is disabled and its school's owner e-mailed.

import { schoolById } from '../creators/schools.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import type { Log } from '../kernel/log.ts'
import { enqueueMail } from '../mail/outbox.ts'
import {
  abandonDelivery,
  claimAttempt,
  deliveryById,
  RETRY_WINDOW_MS,
  recordFailure,
  recordSuccess,
  relayDueDeliveries,
  releaseDelivery,
} from '../webhooks/deliveries.ts'
import {
  disableEndpoint,
  endpointById,
  markEndpointFailing,
  markEndpointHealthy,
  signingSecrets,
} from '../webhooks/endpoints.ts'
import { signatureHeader } from '../webhooks/secrets.ts'
import { postWebhook, type SendOutcome, type SignedRequest } from '../webhooks/send.ts'
import { ownerPlanIncludes } from './creator-standing.ts'

/** The relay's pass (jobs/registry.ts): due deliveries onto the queue. */
export const relayWebhookDeliveries = relayDueDeliveries

export const WEBHOOK_DISABLED_MAIL = 'webhook-endpoint-disabled'
export const DISABLED_AFTER_FAILURES = 'Failed for 3 days without a successful delivery'

export interface WebhookDeliveryDeps {
  db: DB
  log?: Log
  /** Private and loopback targets allowed (outside production, or WEBHOOKS_ALLOW_PRIVATE=on). */
  allowPrivate: boolean
  publicUrl: string
  timeoutMs?: number
}

export type AttemptResult = 'delivered' | 'retry' | 'gave_up' | 'skipped' | 'released'

/**
 * One attempt. `jobId` is the queue's job that carries it: the row is that job's only while its job_id names it
 * (the relay takes a row again once its job is gone, deliveries.ts). Absent: a direct call (tests), for a row no job
 * holds. A database error before the POST sends nothing and counts nothing: the row is released for a later try
 * ('released'); when even that fails, the error fails the job and the relay takes the row again once the job is gone.
 */
export async function attemptWebhookDelivery(
  deps: WebhookDeliveryDeps,
  deliveryId: string,
  jobId: string | null = null,
): Promise<AttemptResult> {
  let ready: Awaited<ReturnType<typeof prepareAttempt>>
  try {
    ready = await prepareAttempt(deps, deliveryId, jobId)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    const released = await releaseDelivery(deps.db, deliveryId, jobId, reason, clock.now()).catch((failure) => {
      deps.log?.warn(
        { err: failure, deliveryId, jobId },
        'webhook delivery stopped before its POST and could not be released; taken again once its job has failed',
      )
      throw error
    })
    deps.log?.warn({ err: error, deliveryId, jobId, released }, 'webhook delivery stopped before its POST')
    return released ?? 'skipped'
  }
  if (typeof ready === 'string') return ready
  const { delivery, endpoint, attempts } = ready
  const { db } = deps
  const outcome = await send(deps, () => {
    const body = JSON.stringify(delivery.payload)
    // Receivers compare the timestamp with their own clock (5 minutes' tolerance): the machine's time, not the business's.
    const sentAt = new Date()
    return {
      url: endpoint.url,
      messageId: delivery.event_id,
      timestamp: sentAt,
      signature: signatureHeader(signingSecrets(endpoint, clock.now()), delivery.event_id, sentAt, body),
      body,
    }
  })
  const now = clock.now()
  if (outcome.ok) {
    await recordSuccess(db, deliveryId, jobId, outcome.status, now)
    await markEndpointHealthy(db, endpoint.id)
    return 'delivered'
  }
  const { gaveUp } = await recordFailure(db, { ...delivery, attempts }, jobId, outcome, now)
  // Failing since the first undelivered event fell due (its creation), unless already failing; never before the
  // endpoint was last saved: enabling it again starts a fresh window, whatever deliveries were left from before.
  const since = new Date(Math.max(delivery.created_at.getTime(), endpoint.updated_at.getTime()))
  const failingSince = await markEndpointFailing(db, endpoint.id, since)
  deps.log?.warn(
    { deliveryId, endpointId: endpoint.id, status: outcome.status, attempts, gaveUp },
    'webhook delivery failed',
  )
  if (now.getTime() - failingSince.getTime() >= RETRY_WINDOW_MS) {
    await disableFailingEndpoint(deps, endpoint, now)
  }
  return gaveUp ? 'gave_up' : 'retry'
}

/**
 * Everything before the POST: the delivery, its endpoint and the plan, then the claim that counts the attempt. A
 * result instead when there is nothing to send.
 */
async function prepareAttempt(deps: WebhookDeliveryDeps, deliveryId: string, jobId: string | null) {
  const { db } = deps
  const delivery = await deliveryById(db, deliveryId)
  if (!delivery || delivery.delivered_at || delivery.failed_at) return 'skipped'
  const endpoint = await endpointById(db, delivery.endpoint_id)
  if (!endpoint?.enabled) {
    await abandonDelivery(db, deliveryId, jobId, 'The endpoint is disabled', clock.now())
    return 'skipped'
  }
  // Webhooks hold while the owner's plan includes them (as their recording does, flows/webhook-events.ts).
  const school = await schoolById(db, endpoint.school_id)
  if (!school || !(await ownerPlanIncludes(db, school.ownerId, 'webhooks'))) {
    await abandonDelivery(db, deliveryId, jobId, 'The school’s plan no longer includes webhooks', clock.now())
    return 'skipped'
  }
  const attempts = await claimAttempt(db, delivery, jobId, clock.now())
  if (attempts === null) return 'skipped'
  return { delivery, endpoint, attempts }
}

/**
 * The signed POST of the claimed attempt; anything that throws on the way (a secret or URL that cannot be used) is a
 * failed attempt like a refused connection, so it is recorded and counts towards the 3 days.
 */
async function send(deps: WebhookDeliveryDeps, request: () => SignedRequest): Promise<SendOutcome> {
  try {
    return await postWebhook(request(), { allowPrivate: deps.allowPrivate, timeoutMs: deps.timeoutMs })
  } catch (error) {
    return { ok: false, status: null, error: error instanceof Error ? error.message : String(error) }
  }
}

async function disableFailingEndpoint(
  deps: WebhookDeliveryDeps,
  endpoint: { id: string; school_id: string; url: string },
  now: Date,
) {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await disableEndpoint(trx, endpoint.id, DISABLED_AFTER_FAILURES, now))) return
    const school = await schoolById(trx, endpoint.school_id)
    if (!school) return
    const owner = await trx.selectFrom('users').select('email').where('id', '=', school.ownerId).executeTakeFirst()
    if (!owner) return
    const host = new URL(endpoint.url).host
    await enqueueMail(trx, {
      kind: WEBHOOK_DISABLED_MAIL,
      to: owner.email,
      subject: `Webhook endpoint disabled: ${host}`,
      text: [
        `Your school ${school.name}'s webhook endpoint at ${host} has failed for 3 days without a successful delivery, so we disabled it.`,
        '',
        'Fix the endpoint, then enable it again and replay the deliveries you need from the delivery log:',
        `${deps.publicUrl}/studio/webhooks`,
      ].join('\n'),
    })
  })
  deps.log?.warn({ endpointId: endpoint.id }, 'webhook endpoint disabled after 3 days of failures')
}
