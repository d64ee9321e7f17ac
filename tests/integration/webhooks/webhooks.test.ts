// Outgoing webhooks against a real database and a real receiver on 127.0.0.1 (decision 0061): the receiver checks
// every delivery with the reference library (standardwebhooks' Webhook.verify); events are written in the
// transaction of the change (a paid order, a refund); failures back off for 3 days, then the endpoint is disabled
// and its owner e-mailed; replay re-sends the same message; a rotated secret and the previous one both verify for
// 24 hours; only an Enterprise school's owner manages endpoints. Adding an endpoint, revealing and rotating its secret
// need a fresh proof and mail the owner (decision 0141). Enrolment events name the enrolment as the REST API does.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { TRPCError } from '@trpc/server'
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CONFIRM_MAIL_KIND } from '../../../src-server/auth/confirm-action.ts'
import { enrolForFree } from '../../../src-server/flows/free-enrolment.ts'
import { refundOrder } from '../../../src-server/flows/refunds.ts'
import { apiEnrolments } from '../../../src-server/flows/school-api.ts'
import { attemptWebhookDelivery, WEBHOOK_DISABLED_MAIL } from '../../../src-server/flows/webhook-delivery.ts'
import { WEBHOOK_SECRET_MAIL_KIND, WEBHOOK_TOO_MANY_SENDS } from '../../../src-server/flows/webhooks.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { isPrivateAddress } from '../../../src-server/kernel/private-targets.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { relayDueDeliveries, retryDelaySeconds } from '../../../src-server/webhooks/deliveries.ts'
import { postWebhook } from '../../../src-server/webhooks/send.ts'
import { assertEndpointUrl } from '../../../src-server/webhooks/targets.ts'
import { WEBHOOK_EVENT_DATA, type WebhookEventType } from '../../../src-shared/schemas/webhooks.ts'
import { createCreator, createCreatorCourse, lapsePlan, restorePlan } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { sell } from '../../support/earnings.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts'

let database: DatabaseHandle
const db = () => database.db

let receiver: WebhookReceiver
type Received = WebhookReceiver['received'][number]

beforeAll(async () => {
  database = await createTestDatabase()
  receiver = await startWebhookReceiver()
})
afterAll(async () => {
  await receiver?.close()
  await database?.close()
})
afterEach(() => {
  clock.resetClock()
  receiver.answer = 204
})

// A generous answer limit: a busy test machine must not turn a slow local answer into a failed attempt.
const deps = () => ({ db: db(), allowPrivate: true, publicUrl: 'http://localhost:3000', timeoutMs: 15_000 })

function verifies(secret: string, message: Received) {
  return new Webhook(secret).verify(message.body, message.headers as Record<string, string>)
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (error instanceof TRPCError) return `${error.code}: ${error.message}`
    throw error
  }
  return 'OK'
}

/** An Enterprise creator with an endpoint at the receiver for the given events. */
async function enterpriseEndpoint(eventTypes: string[] = ['order.paid', 'enrolment.granted']) {
  const owner = await createCreator(db(), { plan: 'enterprise' })
  const caller = await callerAs(db(), owner)
  const { id, secret } = await caller.webhooks.create({
    url: receiver.url,
    description: 'CRM',
    eventTypes,
    password: owner.password,
  } as never)
  return { owner, caller, endpointId: id, secret }
}

/**
 * The owner's enrolments as GET /api/v1/enrolments lists them. The API holds a row back while an older transaction is
 * open anywhere in the cluster (decision 0094): in a parallel run it may show a moment later, so wait for `count`.
 */
async function apiEnrolmentsOf(ownerId: string, count: number) {
  const caller = { keyId: 'test', schoolId: 'test', ownerId, scopes: new Set(['enrolments:read']) }
  const deadline = Date.now() + 15_000
  for (;;) {
    const { data } = await apiEnrolments(db(), caller, { limit: 100 })
    if (data.length >= count || Date.now() > deadline) return data
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The event's data as documented (/developers/api): every field known, of its type, none missing. */
function documented(payload: unknown) {
  const { type, data } = payload as { type: WebhookEventType; data: unknown }
  return WEBHOOK_EVENT_DATA[type].strict().parse(data)
}

async function pendingDeliveries(endpointId: string) {
  return db()
    .selectFrom('webhook_deliveries')
    .select([
      'id',
      'event_id',
      'event_type',
      'payload',
      'attempts',
      'last_attempt_at',
      'next_attempt_at',
      'delivered_at',
      'failed_at',
    ])
    .where('endpoint_id', '=', endpointId)
    .orderBy('created_at')
    .execute()
}

describe('signed deliveries', { timeout: 90_000 }, () => {
  it('a paid order and its refund reach the receiver signed, and verify with the reference library', async () => {
    const { owner, caller, endpointId, secret } = await enterpriseEndpoint([
      'order.paid',
      'enrolment.granted',
      'order.refunded',
      'enrolment.revoked',
    ])
    const created = await createCreatorCourse(db(), owner, { status: 'published' })
    const course = { id: created.id, title: created.title, price_minor: 4900 }
    const sale = await sell(db(), [course])
    const paid = await pendingDeliveries(endpointId)
    expect(paid.map((row) => row.event_type).sort()).toEqual(['enrolment.granted', 'order.paid'])
    expect(paid.find((row) => row.event_type === 'order.paid')?.payload).toMatchObject({
      type: 'order.paid',
      data: { courseId: course.id, orderId: sale.orderId, amountMinor: 4900, learnerId: sale.buyer.id },
    })
    // The enrolment is named as the REST API names it: its id and its source (decision 0141).
    const [enrolment] = await apiEnrolmentsOf(owner.id, 1)
    expect(enrolment).toMatchObject({ course_id: course.id, source: 'purchase', learner: { id: sale.buyer.id } })
    const granted = paid.find((row) => row.event_type === 'enrolment.granted')?.payload
    expect(documented(granted)).toEqual({
      courseId: course.id,
      enrolmentId: enrolment?.id,
      learnerId: sale.buyer.id,
      source: 'purchase',
      orderId: sale.orderId,
      orderItemId: expect.any(String),
    })
    for (const row of paid) documented(row.payload)

    receiver.received.length = 0
    for (const row of paid) expect(await attemptWebhookDelivery(deps(), row.id)).toBe('delivered')
    expect(receiver.received).toHaveLength(2)
    for (const message of receiver.received) {
      expect(message.headers['webhook-id']).toMatch(/^msg_/)
      expect(verifies(secret, message)).toMatchObject({ data: { courseId: course.id } })
      // A wrong secret does not verify.
      expect(() => verifies('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', message)).toThrow()
    }

    const admin = await createUser(db(), { role: 'super_admin' })
    await refundOrder(
      db(),
      { orderId: sale.orderId, reference: 'BANK-RF-1', actor: { id: admin.id, email: admin.email } },
      null,
    )
    const after = await pendingDeliveries(endpointId)
    const refundEvents = after.filter((row) => !row.delivered_at).map((row) => row.event_type)
    expect(refundEvents.sort()).toEqual(['enrolment.revoked', 'order.refunded'])
    expect(documented(after.find((row) => row.event_type === 'enrolment.revoked')?.payload)).toMatchObject({
      enrolmentId: enrolment?.id,
      learnerId: sale.buyer.id,
      reason: 'refund',
    })
    for (const row of after) documented(row.payload)

    const log = await caller.webhooks.deliveries({ endpointId })
    expect(log.filter((row) => row.status === 'delivered')).toHaveLength(2)
    expect(log.filter((row) => row.status === 'pending')).toHaveLength(2)
  })

  it('an order of two schools’ courses and a course without a school: each school is told of its own course only', async () => {
    // The paid order reads its courses' schools once for all its events (flows/webhook-events.ts readSchoolsOfCourses).
    const first = await enterpriseEndpoint()
    const second = await enterpriseEndpoint()
    const courseOf = async (owner: typeof first.owner) => {
      const created = await createCreatorCourse(db(), owner, { status: 'published' })
      return { id: created.id, title: created.title, price_minor: 2500 }
    }
    const [firstCourse, secondCourse] = [await courseOf(first.owner), await courseOf(second.owner)]
    const house = await db()
      .selectFrom('courses')
      .select(['id', 'title', 'price_minor'])
      .where('owner_id', 'is', null)
      .executeTakeFirstOrThrow()
    const sale = await sell(db(), [firstCourse, house, secondCourse])
    for (const [school, course] of [
      [first, firstCourse],
      [second, secondCourse],
    ] as const) {
      const told = await pendingDeliveries(school.endpointId)
      expect(told.map((row) => row.event_type).sort()).toEqual(['enrolment.granted', 'order.paid'])
      for (const row of told)
        expect(row.payload).toMatchObject({ data: { courseId: course.id, orderId: sale.orderId } })
    }
  })

  it('a line refunded, then the rest of the order: each line is reported given back once', async () => {
    const { owner, endpointId } = await enterpriseEndpoint(['order.refunded', 'enrolment.revoked'])
    const [first, second] = await Promise.all([
      createCreatorCourse(db(), owner, { status: 'published' }),
      createCreatorCourse(db(), owner, { status: 'published' }),
    ])
    const sale = await sell(db(), [
      { id: first.id, title: first.title, price_minor: 4900 },
      { id: second.id, title: second.title, price_minor: 2000 },
    ])
    const lineOf = async (courseId: string) =>
      (
        await db()
          .selectFrom('order_items')
          .select('id')
          .where('order_id', '=', sale.orderId)
          .where('course_id', '=', courseId)
          .executeTakeFirstOrThrow()
      ).id
    const admin = await createUser(db(), { role: 'super_admin' })
    const actor = { id: admin.id, email: admin.email }
    await refundOrder(
      db(),
      { orderId: sale.orderId, lineIds: [await lineOf(first.id)], reference: 'RF-A', actor },
      null,
    )
    await refundOrder(db(), { orderId: sale.orderId, reference: 'RF-REST', actor }, null)
    const refunded = (await pendingDeliveries(endpointId))
      .filter((row) => row.event_type === 'order.refunded')
      .map((row) => (row.payload as { data: { courseId: string; amountMinor: number } }).data)
    // 49.00 then 20.00: 69.00 given back of a 69.00 order, not A's 49.00 a second time.
    expect(refunded).toEqual([
      expect.objectContaining({ courseId: first.id, amountMinor: 4900 }),
      expect.objectContaining({ courseId: second.id, amountMinor: 2000 }),
    ])
    const revoked = (await pendingDeliveries(endpointId)).filter((row) => row.event_type === 'enrolment.revoked')
    expect(revoked).toHaveLength(2)
  })

  it('a free course’s enrolment is named as the API names it: source free, the API’s enrolment id', async () => {
    const { owner, endpointId } = await enterpriseEndpoint(['enrolment.granted'])
    const created = await createCreatorCourse(db(), owner, { status: 'published' })
    await db().updateTable('courses').set({ price_minor: 0 }).where('id', '=', created.id).execute()
    const learner = await createUser(db())
    await enrolForFree(db(), learner.id, created.id)
    const [enrolment] = await apiEnrolmentsOf(owner.id, 1)
    expect(enrolment).toMatchObject({ course_id: created.id, source: 'free' })
    const [event] = await pendingDeliveries(endpointId)
    expect(documented(event?.payload)).toEqual({
      courseId: created.id,
      enrolmentId: enrolment?.id,
      learnerId: learner.id,
      source: 'free',
    })
  })

  it('an endpoint not subscribed to an event gets none; a school without endpoints costs nothing', async () => {
    const { owner, endpointId } = await enterpriseEndpoint(['question.asked'])
    const created = await createCreatorCourse(db(), owner, { status: 'published' })
    await sell(db(), [{ id: created.id, title: created.title, price_minor: 1000 }])
    expect(await pendingDeliveries(endpointId)).toEqual([])
  })

  it('a school whose plan no longer includes webhooks sends none (its page hides the endpoints, as the API refuses keys)', async () => {
    const { owner, endpointId } = await enterpriseEndpoint(['order.paid'])
    const created = await createCreatorCourse(db(), owner, { status: 'published' })
    await lapsePlan(db(), owner.id)
    await sell(db(), [{ id: created.id, title: created.title, price_minor: 1000 }])
    expect(await pendingDeliveries(endpointId)).toEqual([])
    // Back on Enterprise, the next sale is reported again.
    await restorePlan(db(), owner.id)
    await sell(db(), [{ id: created.id, title: created.title, price_minor: 1000 }])
    const [owed] = await pendingDeliveries(endpointId)
    expect(owed?.event_type).toBe('order.paid')

    // A delivery still waiting when the plan lapses is given up rather than sent.
    await lapsePlan(db(), owner.id)
    receiver.received.length = 0
    expect(await attemptWebhookDelivery(deps(), owed!.id)).toBe('skipped')
    expect(receiver.received).toHaveLength(0)
    const [row] = await pendingDeliveries(endpointId)
    expect(row?.failed_at).not.toBeNull()
  })

  it('the relay puts only due deliveries of enabled endpoints on the queue, once', async () => {
    const { caller, endpointId } = await enterpriseEndpoint()
    const { deliveryId } = await caller.webhooks.sendTest({ endpointId })
    const queued: string[] = []
    const enqueue = async (id: string) => {
      queued.push(id)
      return `job-${id}`
    }
    await relayDueDeliveries(db(), enqueue)
    await relayDueDeliveries(db(), enqueue)
    expect(queued.filter((id) => id === deliveryId)).toHaveLength(1)
  })
})

describe('retries', { timeout: 90_000 }, () => {
  it('back off exponentially for 3 days, then the endpoint is disabled and its owner e-mailed', async () => {
    const { owner, caller, endpointId } = await enterpriseEndpoint()
    const { deliveryId } = await caller.webhooks.sendTest({ endpointId })
    receiver.answer = 500
    const waits: number[] = []
    let result = await attemptWebhookDelivery(deps(), deliveryId)
    while (result === 'retry') {
      const [row] = (await pendingDeliveries(endpointId)).filter((r) => r.id === deliveryId)
      if (!row?.next_attempt_at || !row.last_attempt_at) throw new Error('no next attempt')
      // The back-off counts from the failed attempt (the real time an attempt takes on a loaded machine is not part of it).
      waits.push(Math.round((row.next_attempt_at.getTime() - row.last_attempt_at.getTime()) / 1000))
      await clock.advanceClock(Math.max(0, (row.next_attempt_at.getTime() - clock.nowMs()) / 1000))
      result = await attemptWebhookDelivery(deps(), deliveryId)
    }
    expect(result).toBe('gave_up')
    expect(waits.slice(0, 6)).toEqual([15, 60, 240, 960, 3840, 15360])
    expect(Math.max(...waits)).toBe(12 * 3600)
    // The last attempt falls at the end of the 3 days.
    expect(Math.abs(waits.reduce((sum, wait) => sum + wait, 0) - 3 * 24 * 3600)).toBeLessThan(5)
    expect(retryDelaySeconds(1)).toBe(15)

    const panel = await caller.webhooks.panel()
    const endpoint = panel.endpoints.find((e) => e.id === endpointId)
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/3 days/) })
    const mail = await latestMailTo(db(), owner.email, WEBHOOK_DISABLED_MAIL)
    expect(mail?.text_body).toContain('/studio/webhooks')
    const log = await caller.webhooks.deliveries({ endpointId })
    expect(log[0]).toMatchObject({ status: 'failed', lastStatusCode: 500 })
  })

  it('a receiver that accepts and never answers: the attempt ends at the limit, is retried after the back-off, and delivered once it answers', async () => {
    const { caller, endpointId } = await enterpriseEndpoint()
    const { deliveryId } = await caller.webhooks.sendTest({ endpointId })
    const hung = createServer(() => undefined)
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve))
    const hungUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}/hooks`
    const endpointUrl = (url: string) =>
      db().updateTable('webhook_endpoints').set({ url }).where('id', '=', endpointId).execute()
    await endpointUrl(hungUrl)
    try {
      const started = performance.now()
      expect(await attemptWebhookDelivery({ ...deps(), timeoutMs: 300 }, deliveryId)).toBe('retry')
      expect(performance.now() - started).toBeLessThan(5_000)
    } finally {
      hung.closeAllConnections()
      await new Promise((resolve) => hung.close(resolve))
      await endpointUrl(receiver.url)
    }
    const [row] = (await pendingDeliveries(endpointId)).filter((r) => r.id === deliveryId)
    expect(row).toMatchObject({ attempts: 1, delivered_at: null, failed_at: null })
    expect(row?.next_attempt_at).toBeInstanceOf(Date)
    expect((await caller.webhooks.deliveries({ endpointId }))[0]).toMatchObject({
      lastStatusCode: null,
      lastError: 'No answer within 0.3 s',
    })

    // The next attempt, after the back-off, reaches the receiver that answers now.
    await clock.advanceClock(Math.max(0, ((row?.next_attempt_at?.getTime() ?? 0) - clock.nowMs()) / 1000))
    const before = receiver.received.length
    expect(await attemptWebhookDelivery(deps(), deliveryId)).toBe('delivered')
    expect(receiver.received.length - before).toBe(1)
  })

  it('a success in between starts the failure window again', async () => {
    const { caller, endpointId } = await enterpriseEndpoint()
    receiver.answer = 500
    const first = await caller.webhooks.sendTest({ endpointId })
    expect(await attemptWebhookDelivery(deps(), first.deliveryId)).toBe('retry')
    await clock.advanceClock(2 * 24 * 3600)
    receiver.answer = 200
    const second = await caller.webhooks.sendTest({ endpointId })
    expect(await attemptWebhookDelivery(deps(), second.deliveryId)).toBe('delivered')
    receiver.answer = 500
    await clock.advanceClock(1.5 * 24 * 3600)
    const third = await caller.webhooks.sendTest({ endpointId })
    expect(await attemptWebhookDelivery(deps(), third.deliveryId)).toBe('retry')
    expect((await caller.webhooks.panel()).endpoints[0]?.enabled).toBe(true)
  })
})

describe('enabling again', { timeout: 90_000 }, () => {
  it('starts a fresh failure window: a delivery left from before fails once without disabling the endpoint again', async () => {
    const { owner, caller, endpointId } = await enterpriseEndpoint()
    receiver.answer = 500
    const left = await caller.webhooks.sendTest({ endpointId })
    expect(await attemptWebhookDelivery(deps(), left.deliveryId)).toBe('retry')
    // The owner disables the failing endpoint, fixes their receiver over a few days, and enables it again.
    const edit = { endpointId, description: 'CRM', eventTypes: ['order.paid' as const] }
    await caller.webhooks.update({ ...edit, enabled: false })
    await clock.advanceClock(4 * 24 * 3600)
    await caller.webhooks.update({ ...edit, enabled: true })
    // The delivery left from before is tried again and fails once more (the receiver is still starting).
    expect(await attemptWebhookDelivery(deps(), left.deliveryId)).toBe('gave_up')
    const endpoint = (await caller.webhooks.panel()).endpoints.find((e) => e.id === endpointId)
    expect(endpoint).toMatchObject({ enabled: true, disabledReason: null })
    expect(await latestMailTo(db(), owner.email, WEBHOOK_DISABLED_MAIL)).toBeUndefined()
    // Its window counts from the enabling: 3 days of failures after it disable the endpoint.
    await clock.advanceClock(3 * 24 * 3600)
    const later = await caller.webhooks.sendTest({ endpointId })
    expect(await attemptWebhookDelivery(deps(), later.deliveryId)).toBe('retry')
    expect((await caller.webhooks.panel()).endpoints.find((e) => e.id === endpointId)?.enabled).toBe(false)
  })
})

describe('test events and replays are counted (decision 0114)', { timeout: 90_000 }, () => {
  it('a school sends 30 in 10 minutes; the next is refused and queues nothing; another school is not held back', async () => {
    const { caller, endpointId } = await enterpriseEndpoint()
    receiver.answer = 500
    const first = await caller.webhooks.sendTest({ endpointId })
    for (let i = 1; i < 29; i++) await caller.webhooks.sendTest({ endpointId })
    // A replay counts with them: each unanswered one is retried for 3 days.
    await caller.webhooks.replay({ deliveryId: first.deliveryId })
    const before = (await pendingDeliveries(endpointId)).length
    expect(await failure(caller.webhooks.sendTest({ endpointId }))).toBe(`TOO_MANY_REQUESTS: ${WEBHOOK_TOO_MANY_SENDS}`)
    expect(await failure(caller.webhooks.replay({ deliveryId: first.deliveryId }))).toBe(
      `TOO_MANY_REQUESTS: ${WEBHOOK_TOO_MANY_SENDS}`,
    )
    expect((await pendingDeliveries(endpointId)).length).toBe(before)
    const other = await enterpriseEndpoint()
    expect(await failure(other.caller.webhooks.sendTest({ endpointId: other.endpointId }))).toBe('OK')
  })
})

describe('replay and rotation', { timeout: 90_000 }, () => {
  it('replay sends the same message (id and body) again as a new delivery', async () => {
    const { caller, endpointId, secret } = await enterpriseEndpoint()
    const { deliveryId } = await caller.webhooks.sendTest({ endpointId })
    receiver.received.length = 0
    expect(await attemptWebhookDelivery(deps(), deliveryId)).toBe('delivered')
    expect(receiver.received).toHaveLength(1)
    const replay = await caller.webhooks.replay({ deliveryId })
    expect(replay.deliveryId).not.toBe(deliveryId)
    expect(await attemptWebhookDelivery(deps(), replay.deliveryId)).toBe('delivered')
    expect(receiver.received).toHaveLength(2)
    expect(receiver.received[1]?.headers['webhook-id']).toBe(receiver.received[0]?.headers['webhook-id'])
    expect(receiver.received[1]?.body).toBe(receiver.received[0]?.body)
    expect(verifies(secret, receiver.received[1] as Received)).toMatchObject({ type: 'webhook.test' })
    const log = await caller.webhooks.deliveries({ endpointId })
    expect(log.map((row) => row.isReplay)).toEqual([true, false])
  })

  it('after a rotation both secrets verify for 24 hours, then only the new one', async () => {
    const { owner, caller, endpointId, secret: old } = await enterpriseEndpoint()
    const { secret: rotated } = await caller.webhooks.rotateSecret({ endpointId, password: owner.password })
    expect(rotated).toMatch(/^whsec_/)
    expect(rotated).not.toBe(old)
    expect((await caller.webhooks.revealSecret({ endpointId, password: owner.password })).secret).toBe(rotated)

    receiver.received.length = 0
    await attemptWebhookDelivery(deps(), (await caller.webhooks.sendTest({ endpointId })).deliveryId)
    const during = receiver.received[0] as Received
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(verifies(old, during)).toBeTruthy()
    expect(verifies(rotated, during)).toBeTruthy()

    await clock.advanceClock(24 * 3600 + 60)
    await attemptWebhookDelivery(deps(), (await caller.webhooks.sendTest({ endpointId })).deliveryId)
    const later = receiver.received[1] as Received
    expect(verifies(rotated, later)).toBeTruthy()
    expect(() => verifies(old, later)).toThrow()
  })
})

describe('an endpoint and its secret need a fresh proof, and the owner is mailed (decision 0141)', {
  timeout: 90_000,
}, () => {
  const secretMails = async (email: string) =>
    (
      await db()
        .selectFrom('mail_outbox')
        .select(['subject', 'text_body'])
        .where('to_address', '=', email)
        .where('kind', '=', WEBHOOK_SECRET_MAIL_KIND)
        .orderBy('created_at')
        .execute()
    ).map((mail) => ({ subject: mail.subject, text: mail.text_body ?? '' }))

  it('a second session of the owner’s adds no endpoint and sees no secret without the password; with it, the owner is told', async () => {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    // A stolen cookie: it learns how to confirm, and is refused without the password, or with a wrong one.
    const stolen = await callerAs(db(), owner)
    expect((await stolen.webhooks.panel()).confirm).toEqual({ hasPassword: true, hasTwoFactor: false })
    const adding = { url: receiver.url, description: 'Exfil', eventTypes: ['order.paid' as const] }
    expect(await failure(stolen.webhooks.create(adding))).toBe(
      'BAD_REQUEST: Enter your password, or a code from your authenticator app.',
    )
    expect(await failure(stolen.webhooks.create({ ...adding, password: 'not-the-password' }))).toBe(
      'BAD_REQUEST: That password is not right.',
    )
    expect((await stolen.webhooks.panel()).endpoints).toEqual([])
    expect(await secretMails(owner.email)).toEqual([])

    const { id: endpointId, secret } = await stolen.webhooks.create({ ...adding, password: owner.password })
    const school = await db()
      .selectFrom('schools')
      .select('name')
      .where('owner_id', '=', owner.id)
      .executeTakeFirstOrThrow()
    const [added] = await secretMails(owner.email)
    expect(added?.subject).toBe(`A new webhook endpoint for ${school.name}`)
    expect(added?.text).toContain(`${owner.email} added a webhook endpoint`)
    expect(added?.text).toContain(`url:         ${receiver.url}`)
    expect(added?.text).toContain('events:      order.paid')
    expect(added?.text).toContain('/studio/webhooks')

    for (const step of ['revealSecret', 'rotateSecret'] as const) {
      expect(await failure(stolen.webhooks[step]({ endpointId }))).toBe(
        'BAD_REQUEST: Enter your password, or a code from your authenticator app.',
      )
      expect(await failure(stolen.webhooks[step]({ endpointId, password: 'not-the-password' }))).toBe(
        'BAD_REQUEST: That password is not right.',
      )
    }
    // Refused, the secret did not change and nobody was told of anything more.
    expect(await secretMails(owner.email)).toHaveLength(1)
    const revealed = await stolen.webhooks.revealSecret({ endpointId, password: owner.password })
    expect(revealed.secret).toBe(secret)
    const rotated = await stolen.webhooks.rotateSecret({ endpointId, password: owner.password })
    expect(rotated.secret).not.toBe(secret)
    const mails = await secretMails(owner.email)
    expect(mails.map((mail) => mail.subject)).toEqual([
      `A new webhook endpoint for ${school.name}`,
      `A webhook signing secret was revealed for ${school.name}`,
      `A webhook signing secret was rotated for ${school.name}`,
    ])
    // No secret is ever in a mail.
    for (const mail of mails) for (const shown of [secret, rotated.secret]) expect(mail.text).not.toContain(shown)
  })

  it('an owner without a password confirms with an e-mailed code, used once', async () => {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    // Signed up with Google: no password, so a code is e-mailed to confirm.
    await db().updateTable('users').set({ password_hash: null }).where('id', '=', owner.id).execute()
    const caller = await callerAs(db(), owner)
    expect((await caller.webhooks.panel()).confirm).toEqual({ hasPassword: false, hasTwoFactor: false })
    const adding = { url: receiver.url, eventTypes: ['order.paid' as const] }
    expect(await failure(caller.webhooks.create(adding))).toBe('BAD_REQUEST: Enter the code we e-mailed you.')
    const mailedCode = async (action: 'add-webhook-endpoint' | 'webhook-secret', says: string) => {
      await caller.privacy.sendConfirmationCode({ action })
      const mail = await latestMailTo(db(), owner.email, CONFIRM_MAIL_KIND)
      expect(mail?.text_body).toContain(says)
      return /^ {2}Code: ([a-z2-7]{13})$/m.exec(mail?.text_body ?? '')?.[1] as string
    }
    const code = await mailedCode('add-webhook-endpoint', 'add a webhook endpoint for a school')
    const { id: endpointId } = await caller.webhooks.create({ ...adding, code })
    expect(await failure(caller.webhooks.create({ ...adding, code }))).toBe(
      'BAD_REQUEST: That code is not right, or it has expired. Ask for a new one.',
    )
    const secretCode = await mailedCode('webhook-secret', 'reveal or rotate a webhook endpoint’s signing secret')
    expect((await caller.webhooks.revealSecret({ endpointId, code: secretCode })).secret).toMatch(/^whsec_/)
    expect(await secretMails(owner.email)).toHaveLength(2)
  })
})

describe('who may manage webhooks', { timeout: 90_000 }, () => {
  it('only an Enterprise school owner; a member is refused; another school sees nothing', async () => {
    const pro = await createCreator(db(), { plan: 'pro' })
    const asPro = await callerAs(db(), pro)
    const proAdds = { url: receiver.url, eventTypes: ['order.paid'], password: pro.password }
    expect(await failure(asPro.webhooks.create(proAdds as never))).toMatch(
      /^PRECONDITION_FAILED: Webhooks come with the Enterprise plan: see Pricing$/,
    )
    expect((await asPro.webhooks.panel()).included).toBe(false)

    const { owner, endpointId } = await enterpriseEndpoint()
    const school = await db()
      .selectFrom('schools')
      .select('id')
      .where('owner_id', '=', owner.id)
      .executeTakeFirstOrThrow()
    const member = await createUser(db())
    await db()
      .insertInto('school_members')
      .values({ school_id: school.id, user_id: member.id, role: 'finance' })
      .execute()
    const asMember = await callerAs(db(), member)
    expect(await failure(asMember.webhooks.panel({ schoolId: school.id }))).toMatch(/^FORBIDDEN/)

    const other = await createCreator(db(), { plan: 'enterprise' })
    const asOther = await callerAs(db(), other)
    expect(await failure(asOther.webhooks.sendTest({ endpointId }))).toMatch(/^NOT_FOUND/)
    expect(await failure(asOther.webhooks.revealSecret({ endpointId, password: other.password }))).toMatch(/^NOT_FOUND/)
    expect(await failure(asOther.webhooks.rotateSecret({ endpointId, password: other.password }))).toMatch(/^NOT_FOUND/)
    expect(await failure(asOther.webhooks.deliveries({ endpointId }))).toMatch(/^NOT_FOUND/)
    expect(await failure(callerAs(db(), null).then((c) => c.webhooks.panel()))).toMatch(/^UNAUTHORIZED/)
  })
})

describe('targets (SSRF)', { timeout: 90_000 }, () => {
  it('production refuses http, loopback and private addresses, at creation and at send time', async () => {
    expect(() => assertEndpointUrl('http://example.com/hook', false)).toThrow(/https/)
    expect(() => assertEndpointUrl('http://127.0.0.1:9/hook', false)).toThrow(/https/)
    expect(() => assertEndpointUrl('https://10.1.2.3/hook', false)).toThrow(/public/)
    expect(() => assertEndpointUrl('https://localhost/hook', false)).toThrow(/public/)
    expect(() => assertEndpointUrl('https://user:pw@example.com/hook', false)).toThrow(/passwords/)
    expect(assertEndpointUrl('https://hooks.example.com/x', false).hostname).toBe('hooks.example.com')
    // Outside production: http on loopback only.
    expect(assertEndpointUrl('http://127.0.0.1:9/hook', true).port).toBe('9')
    expect(() => assertEndpointUrl('http://example.com/hook', true)).toThrow(/https/)
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      // IPv4 inside IPv6: compatible (how a URL writes [::127.0.0.1]), 6to4 of 127.0.0.1, Teredo, NAT64's local prefix.
      '::7f00:1',
      '2002:7f00:1::',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '64:ff9b:1::a00:1',
    ])
      expect(isPrivateAddress(address)).toBe(true)
    expect(isPrivateAddress('93.184.216.34')).toBe(false)
    expect(isPrivateAddress('2606:4700::1111')).toBe(false)
    expect(() => assertEndpointUrl('https://[::127.0.0.1]/hook', false)).toThrow(/public/)
    expect(() => assertEndpointUrl('https://[2002:7f00:1::]/hook', false)).toThrow(/public/)

    receiver.received.length = 0
    const request = { messageId: 'msg_x', timestamp: new Date(), signature: 'v1,x', body: '{}' }
    expect(await postWebhook({ ...request, url: receiver.url }, { allowPrivate: false })).toMatchObject({
      ok: false,
      error: 'Refused: the address is private',
    })
    // A name resolving to loopback is refused too (the connection goes only to a checked address).
    expect(
      await postWebhook({ ...request, url: receiver.url.replace('127.0.0.1', 'localhost') }, { allowPrivate: false }),
    ).toMatchObject({ ok: false, error: 'Refused: the address is private' })
    expect(receiver.received).toHaveLength(0)
  })

  it('gives up on an endpoint that does not answer within the limit', async () => {
    const silent = createServer(() => undefined)
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`
    const outcome = await postWebhook(
      { url, messageId: 'msg_y', timestamp: new Date(), signature: 'v1,x', body: '{}' },
      { allowPrivate: true, timeoutMs: 200 },
    )
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'No answer within 0.2 s' })
    silent.closeAllConnections()
    await new Promise((resolve) => silent.close(resolve))
  })
})
