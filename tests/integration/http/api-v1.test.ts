// The REST API over real HTTP (issue 36, decision 0060): school keys stored as hashes only and shown once, refused
// with 401/403 and a { error: { code, message } } body when missing, unknown, revoked, expired, of another school or
// read-only; last use recorded; cursor pages; an enrolment granted then revoked through the access ledger; the key's
// rate limit in RateLimit headers; and the OpenAPI 3.1 document listing every path, whose schemas the answers match.
// A client syncing enrolments or orders by cursor misses no row whose transaction commits after a later one was read
// (decision 0094; on PostgreSQL, with a transaction held open).
import { createHash, randomBytes } from 'node:crypto'
import type { TRPCError } from '@trpc/server'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { ENROLMENT_COURSE_CLOSED, ENROLMENT_INVITE_MAIL } from '../../../src-server/flows/enrolment-invites.ts'
import { createMemoryLimiter } from '../../../src-server/security/rate-limit.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { ownedCourse, sell } from '../../support/earnings.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'
import { raceIt, whileHeld } from '../../support/race.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const limiter = createMemoryLimiter()
const site = serveForThisFile({ limiter })

type Scope =
  | 'courses:read'
  | 'lessons:read'
  | 'learners:read'
  | 'enrolments:read'
  | 'enrolments:write'
  | 'orders:read'
  | 'earnings:read'
const ALL: Scope[] = [
  'courses:read',
  'lessons:read',
  'learners:read',
  'enrolments:read',
  'enrolments:write',
  'orders:read',
  'earnings:read',
]

async function keyFor(owner: TestUser, scopes: Scope[] = ALL, name = 'Sync job') {
  return (await callerAs(site.db, owner)).apiKeys.create({ name, scopes, expiresInDays: 30, password: owner.password })
}

async function api(path: string, key: string | null, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${site.baseUrl}/api/v1${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  // biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON the API answers
  return { status: response.status, headers: response.headers, body: (await response.json()) as any }
}

/**
 * A list read right after a write. The API holds rows back while a transaction older than them is still open anywhere
 * in the cluster (decision 0094), so in a parallel test run the row may show a moment later: wait for it (15 s).
 */
async function listAfterWrite(path: string, key: string) {
  const deadline = Date.now() + 15_000
  for (;;) {
    const answer = await api(path, key)
    if (answer.body.data?.length > 0 || Date.now() > deadline) return answer
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('API keys', () => {
  it('are stored as a SHA-256 only, listed by prefix, made by the owner on Enterprise only; last use recorded', async () => {
    const owner = await createCreator(site.db, { plan: 'enterprise' })
    const made = await keyFor(owner)
    expect(made.key).toMatch(/^sfk_[a-z2-7]{40}$/)
    const row = await site.db.selectFrom('api_keys').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow()
    expect(Buffer.from(row.secret_hash).equals(createHash('sha256').update(made.key).digest())).toBe(true)
    expect(JSON.stringify(row)).not.toContain(made.key.slice(12))
    expect(row.prefix).toBe(made.key.slice(0, 12))
    const listed = await (await callerAs(site.db, owner)).apiKeys.list()
    expect(listed.keys.map((k) => [k.prefix, k.state, k.lastUsedAt])).toEqual([[row.prefix, 'active', null]])
    expect(JSON.stringify(listed)).not.toContain(made.key)

    expect((await api('/courses', made.key)).status).toBe(200)
    const used = await site.db
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('id', '=', made.id)
      .executeTakeFirst()
    expect(used?.last_used_at).toBeInstanceOf(Date)

    const pro = await createCreator(site.db, { plan: 'pro' })
    const refused = await keyFor(pro).catch((error: TRPCError) => `${error.code}: ${error.message}`)
    expect(refused).toBe('PRECONDITION_FAILED: The API comes with the Enterprise plan: see Pricing')
    expect(await (await callerAs(site.db, pro)).apiKeys.list()).toMatchObject({
      available: false,
      message: 'The API comes with the Enterprise plan.',
    })
  })
})

describe('refusals', () => {
  it('answers 401 for a missing, unknown, revoked or expired key and 403 for another school or a missing scope', async () => {
    const owner = await createCreator(site.db, { plan: 'enterprise' })
    const other = await createCreator(site.db, { plan: 'enterprise' })
    const theirs = await createCreatorCourse(site.db, other, { status: 'published' })
    const mine = await createCreatorCourse(site.db, owner, { status: 'published' })
    const full = await keyFor(owner)
    const readOnly = await keyFor(owner, ['courses:read', 'enrolments:read'], 'Read only')
    const revoked = await keyFor(owner, ALL, 'Old')
    await (await callerAs(site.db, owner)).apiKeys.revoke({ keyId: revoked.id })
    const expired = await keyFor(owner, ALL, 'Expired')
    await site.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expired.id)
      .execute()
    const learner = await createUser(site.db)

    const cases: [string, Awaited<ReturnType<typeof api>>, number, string][] = [
      ['missing', await api('/courses', null), 401, 'missing_key'],
      ['unknown', await api('/courses', `sfk_${'a'.repeat(40)}`), 401, 'unknown_key'],
      ['revoked', await api('/courses', revoked.key), 401, 'key_revoked'],
      ['expired', await api('/courses', expired.key), 401, 'key_expired'],
      ['another school’s course', await api(`/courses/${theirs.id}/lessons`, full.key), 403, 'course_not_in_school'],
      [
        'granting on another school’s course',
        await api('/enrolments', full.key, { method: 'POST', body: { course_id: theirs.id, email: learner.email } }),
        403,
        'course_not_in_school',
      ],
      [
        'a read-only key writing',
        await api('/enrolments', readOnly.key, { method: 'POST', body: { course_id: mine.id, email: learner.email } }),
        403,
        'insufficient_scope',
      ],
      ['a read-only key reading orders', await api('/orders', readOnly.key), 403, 'insufficient_scope'],
    ]
    for (const [name, answer, status, code] of cases) {
      expect([name, answer.status, answer.body.error?.code], name).toEqual([name, status, code])
      expect(answer.body.error.message.length, name).toBeGreaterThan(10)
    }
    expect(cases[2]?.[1].body.error.message).toBe('This API key was revoked')
    // The refusals never echo the key.
    expect(JSON.stringify(cases.map((c) => c[1].body))).not.toContain(revoked.key)
    // The other school's key is refused the course in the same words (its existence is not revealed otherwise).
    expect((await api('/courses/no-such-course/lessons', full.key)).body.error.code).toBe('course_not_in_school')
  })
})

describe('lists', () => {
  it('pages courses and lessons by cursor without overlap; orders and earnings read the owner’s sales', async () => {
    const owner = await createCreator(site.db, { plan: 'enterprise' })
    const made = await Promise.all([1, 2, 3].map(() => createCreatorCourse(site.db, owner, { lessons: 3 })))
    const { key } = await keyFor(owner)
    const first = await api('/courses?limit=2', key)
    expect(first.status).toBe(200)
    expect(first.body.data).toHaveLength(2)
    expect(first.body.next_cursor).toEqual(expect.any(String))
    const second = await api(`/courses?limit=2&cursor=${first.body.next_cursor}`, key)
    expect(second.body.next_cursor).toBeNull()
    const ids = [...first.body.data, ...second.body.data].map((c: { id: string }) => c.id)
    expect(ids.sort()).toEqual(made.map((c) => c.id).sort())

    const lessons1 = await api(`/courses/${made[0]?.id}/lessons?limit=2`, key)
    const lessons2 = await api(`/courses/${made[0]?.id}/lessons?limit=2&cursor=${lessons1.body.next_cursor}`, key)
    expect([...lessons1.body.data, ...lessons2.body.data].map((l: { position: number }) => l.position)).toEqual([
      0, 1, 2,
    ])
    expect(lessons2.body.next_cursor).toBeNull()
    expect((await api('/courses?cursor=not-ours', key)).body.error.code).toBe('invalid_request')
    expect((await api('/courses?limit=1000', key)).status).toBe(400)

    const course = await ownedCourse(site.db, owner.id, 2500, 'Sold through the API')
    const sale = await sell(site.db, [course])
    const orders = await listAfterWrite('/orders', key)
    expect(
      orders.body.data.map((o: { reference: string; amount_minor: number }) => [o.reference, o.amount_minor]),
    ).toEqual([[sale.reference, 2500]])
    const earnings = await api('/earnings?limit=1', key)
    expect(earnings.status).toBe(200)
    expect(earnings.body.data[0]?.description).toContain('Sold through the API')
  })
})

describe('tampered cursors', () => {
  it('are refused with 400 invalid_request on every list, never a 500, whatever values they carry', async () => {
    const owner = await createCreator(site.db, { plan: 'enterprise' })
    const course = await createCreatorCourse(site.db, owner, { lessons: 3 })
    const { key } = await keyFor(owner)
    const cursor = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString('base64url')
    const tampered = [
      `/enrolments?cursor=${cursor(['yesterday', 'x'])}`,
      `/enrolments?cursor=${cursor(['2026-02-30 10:00:00+00', '00000000-0000-4000-8000-000000000000'])}`,
      `/enrolments?cursor=${cursor(['2026-01-01 00:00:00+00', 'not-a-uuid'])}`,
      `/orders?cursor=${cursor(['yesterday', 'x'])}`,
      `/orders?cursor=${cursor(['2026-01-01 00:00:00+00', 'not-a-uuid'])}`,
      `/learners?cursor=${cursor(['zzz'])}`,
      `/courses?cursor=${cursor(['\u0000'])}`,
      `/courses/${course.id}/lessons?cursor=${cursor([-1])}`,
      `/courses/${course.id}/lessons?cursor=${cursor([1.5])}`,
      `/earnings?cursor=${cursor([1e300, 100])}`,
    ]
    for (const path of tampered) {
      const answer = await api(path, key)
      expect([path, answer.status, answer.body.error?.code]).toEqual([path, 400, 'invalid_request'])
    }
    // The cursors the API gives still work (microseconds and an offset in the time included).
    const at = cursor(['2026-01-01 00:00:00.123456+05:30', '00000000-0000-4000-8000-000000000000'])
    expect((await api(`/enrolments?cursor=${at}`, key)).status).toBe(200)
    expect((await api(`/orders?cursor=${at}`, key)).status).toBe(200)
  })
})

/**
 * The enrolment.granted and enrolment.revoked webhooks the school's courses wrote (an endpoint subscribed to both), as
 * [type, source or reason, learner, enrolment id], oldest first.
 */
async function schoolEnrolmentEvents(owner: TestUser) {
  const endpoint = await (await callerAs(site.db, owner)).webhooks.create({
    url: 'http://127.0.0.1:9/hooks',
    eventTypes: ['enrolment.granted', 'enrolment.revoked'],
    password: owner.password,
  } as never)
  return {
    events: async () => {
      const rows = await site.db
        .selectFrom('webhook_deliveries')
        .select('payload')
        .where('endpoint_id', '=', endpoint.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
      return rows
        .map(
          (row) =>
            row.payload as {
              type: string
              data: { source?: string; reason?: string; learnerId: string; enrolmentId: string }
            },
        )
        .map((payload) => [
          payload.type,
          payload.data.source ?? payload.data.reason,
          payload.data.learnerId,
          payload.data.enrolmentId,
        ])
    },
  }
}

describe('enrolments', () => {
  it('enrols a learner the school has at once, lists them, revokes it; a purchase cannot be revoked here', async () => {
    const owner = await createCreator(site.db, { plan: 'enterprise' })
    const course = await createCreatorCourse(site.db, owner, { status: 'published' })
    const { key } = await keyFor(owner)
    const hooks = await schoolEnrolmentEvents(owner)
    // The buyer of another of the school's courses: a learner the school has.
    const sold = await ownedCourse(site.db, owner.id, 1000)
    const learner = (await sell(site.db, [sold])).buyer

    const granted = await api('/enrolments', key, {
      method: 'POST',
      body: { course_id: course.id, email: learner.email.toUpperCase() },
    })
    expect(granted.status).toBe(201)
    expect(granted.body).toMatchObject({
      course_id: course.id,
      source: 'school',
      status: 'active',
      learner: { id: learner.id },
    })
    expect(
      (await api('/enrolments', key, { method: 'POST', body: { course_id: course.id, user_id: learner.id } })).status,
    ).toBe(200)
    const listed = await listAfterWrite(`/enrolments?course_id=${course.id}`, key)
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([granted.body.id])
    const learnerCourses = async () =>
      (await api('/learners', key)).body.data.map((l: { email: string; courses: number }) => [l.email, l.courses])
    expect(await learnerCourses()).toEqual([[learner.email, 2]])

    const revoked = await api(`/enrolments/${granted.body.id}`, key, { method: 'DELETE' })
    expect(revoked.body).toMatchObject({ id: granted.body.id, status: 'revoked' })
    expect(await learnerCourses()).toEqual([[learner.email, 1]])
    // Granting again gives the same enrolment back.
    const again = await api('/enrolments', key, {
      method: 'POST',
      body: { course_id: course.id, email: learner.email },
    })
    expect([again.status, again.body.id, again.body.status]).toEqual([201, granted.body.id, 'active'])

    const bought = await listAfterWrite(`/enrolments?course_id=${sold.id}`, key)
    expect(bought.body.data[0]).toMatchObject({ source: 'purchase', learner: { id: learner.id } })
    // The school's webhooks heard each change once (the repeated grant changed nothing), each naming the enrolment as
    // the API lists it: its source and its id (decision 0141), the purchase's as well as the school's.
    expect(await hooks.events()).toEqual([
      ['enrolment.granted', 'purchase', learner.id, bought.body.data[0].id],
      ['enrolment.granted', 'school', learner.id, granted.body.id],
      ['enrolment.revoked', 'school', learner.id, granted.body.id],
      ['enrolment.granted', 'school', learner.id, granted.body.id],
    ])
    const refused = await api(`/enrolments/${bought.body.data[0].id}`, key, { method: 'DELETE' })
    expect([refused.status, refused.body.error.code]).toEqual([403, 'not_granted_by_school'])
  })

  it('invites anyone else by e-mail, answering alike with or without an account, and enrols them once they accept', async () => {
    const owner = await createCreator(site.db, { plan: 'enterprise' })
    const course = await createCreatorCourse(site.db, owner, { status: 'published', title: 'Glazing basics' })
    const { key } = await keyFor(owner)
    const stamp = Date.now().toString(36)
    const stranger = await createUser(site.db, { email: `stranger-${stamp}@example.test` })
    const invite = (email: string) => api('/enrolments', key, { method: 'POST', body: { course_id: course.id, email } })

    const withAccount = await invite(stranger.email)
    const withoutAccount = await invite(`nobody-${stamp}@example.test`)
    for (const answer of [withAccount, withoutAccount]) {
      expect(answer.status).toBe(202)
      expect(Object.keys(answer.body).sort()).toEqual(['course_id', 'email', 'expires_at', 'id', 'status'])
      expect(answer.body).toMatchObject({ course_id: course.id, status: 'invited' })
    }
    expect(JSON.stringify(withAccount.body)).not.toContain(stranger.id)
    // Nobody is enrolled, or shown to the school, before saying yes; an id names only the school's own learners.
    expect((await api(`/enrolments?course_id=${course.id}`, key)).body.data).toEqual([])
    expect((await api('/learners', key)).body.data).toEqual([])
    const byId = await api('/enrolments', key, { method: 'POST', body: { course_id: course.id, user_id: stranger.id } })
    expect([byId.status, byId.body.error.code]).toEqual([404, 'learner_not_found'])
    // Open invitations are listed; one can be withdrawn (by this school only), and its link stops working.
    const openEmails = async () =>
      (await api('/enrolment-invitations', key)).body.data.map((i: { email: string }) => i.email).sort()
    expect(await openEmails()).toEqual([`nobody-${stamp}@example.test`, stranger.email].sort())
    const otherSchool = await keyFor(await createCreator(site.db, { plan: 'enterprise' }))
    const foreign = await api(`/enrolment-invitations/${withoutAccount.body.id}`, otherSchool.key, { method: 'DELETE' })
    expect(foreign.status).toBe(404)
    const withdrawn = await api(`/enrolment-invitations/${withoutAccount.body.id}`, key, { method: 'DELETE' })
    expect([withdrawn.status, withdrawn.body.status]).toEqual([200, 'withdrawn'])
    expect(await openEmails()).toEqual([stranger.email])
    expect((await api(`/enrolment-invitations/${withoutAccount.body.id}`, key, { method: 'DELETE' })).status).toBe(404)
    const withdrawnMail = await site.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', `nobody-${stamp}@example.test`)
      .executeTakeFirstOrThrow()
    const withdrawnToken = withdrawnMail.text_body.match(/token=([a-z0-9]+)/)?.[1] as string
    const anyone = await callerAs(site.db, await createUser(site.db))
    await expect(anyone.learning.enrolmentInvitation({ token: withdrawnToken })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    // Asked again within the hour: the same invitation, mailed once.
    const again = await invite(stranger.email.toUpperCase())
    expect([again.status, again.body.id]).toEqual([202, withAccount.body.id])
    const mails = await site.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', stranger.email)
      .where('kind', '=', ENROLMENT_INVITE_MAIL)
      .execute()
    expect(mails).toHaveLength(1)
    const token = mails[0]?.text_body.match(/\/enrolment-invite\?token=([a-z0-9]+)/)?.[1] as string
    expect(token).toBeTruthy()

    // Another account cannot take it; the invitee sees the course and accepts it, once.
    const someoneElse = await callerAs(site.db, await createUser(site.db))
    expect(await someoneElse.learning.enrolmentInvitation({ token })).toMatchObject({ forThisAccount: false })
    await expect(someoneElse.learning.acceptEnrolmentInvitation({ token })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    const invitee = await callerAs(site.db, stranger)
    expect(await invitee.learning.enrolmentInvitation({ token })).toMatchObject({
      courseTitle: 'Glazing basics',
      forThisAccount: true,
    })
    expect(await invitee.learning.acceptEnrolmentInvitation({ token })).toEqual({ courseId: course.id })
    await expect(invitee.learning.acceptEnrolmentInvitation({ token })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await openEmails()).toEqual([])
    const enrolled = await listAfterWrite(`/enrolments?course_id=${course.id}`, key)
    expect(enrolled.body.data).toMatchObject([{ learner: { id: stranger.id }, source: 'school', status: 'active' }])
    // A course not yet published takes nobody, neither enrolled nor invited: the learner would find no course.
    const draft = await createCreatorCourse(site.db, owner, { status: 'draft' })
    for (const body of [
      { course_id: draft.id, user_id: stranger.id },
      { course_id: draft.id, email: `later-${stamp}@example.test` },
    ]) {
      const closed = await api('/enrolments', key, { method: 'POST', body })
      expect([closed.status, closed.body.error.code]).toEqual([409, 'course_not_published'])
    }
    expect(await openEmails()).toEqual([])
    // Now one of the school's learners: the next enrolment by address is at once.
    const other = await createCreatorCourse(site.db, owner, { status: 'published' })
    const direct = await api('/enrolments', key, {
      method: 'POST',
      body: { course_id: other.id, user_id: stranger.id },
    })
    expect([direct.status, direct.body.learner?.id]).toEqual([201, stranger.id])
  })
})

describe('an invitation to a course unpublished since', () => {
  it('is not accepted while the course is closed, and still works once it is published again', async () => {
    const owner = await createCreator(site.db, { plan: 'enterprise' })
    const course = await createCreatorCourse(site.db, owner, { status: 'published' })
    const { key } = await keyFor(owner)
    const invitee = await createUser(site.db, { email: `closed-${Date.now().toString(36)}@example.test` })
    const invited = await api('/enrolments', key, {
      method: 'POST',
      body: { course_id: course.id, email: invitee.email },
    })
    expect(invited.status).toBe(202)
    const mail = await site.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', invitee.email)
      .executeTakeFirstOrThrow()
    const token = mail.text_body.match(/\/enrolment-invite\?token=([a-z0-9]+)/)?.[1] as string
    const setStatus = (status: 'published' | 'unpublished') =>
      site.db.updateTable('courses').set({ status }).where('id', '=', course.id).execute()

    await setStatus('unpublished')
    const asInvitee = await callerAs(site.db, invitee)
    await expect(asInvitee.learning.acceptEnrolmentInvitation({ token })).rejects.toThrow(ENROLMENT_COURSE_CLOSED)
    expect((await api(`/enrolments?course_id=${course.id}`, key)).body.data).toEqual([])
    await setStatus('published')
    expect(await asInvitee.learning.acceptEnrolmentInvitation({ token })).toEqual({ courseId: course.id })
  })
})

describe('malformed requests', () => {
  it('answer 4xx in the API’s error shape: broken JSON, a body too large, a NUL in a course id', async () => {
    const owner = await createCreator(site.db, { plan: 'enterprise' })
    const course = await createCreatorCourse(site.db, owner, { status: 'published' })
    const { key } = await keyFor(owner)
    const post = (body: string) =>
      fetch(`${site.baseUrl}/api/v1/enrolments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      })
    const answers: [string, Response][] = [
      ['broken JSON', await post('{"course_id": ')],
      ['a body too large', await post(JSON.stringify({ course_id: course.id, pad: 'x'.repeat(2_000_000) }))],
      ['a NUL in the body’s course id', await post(JSON.stringify({ course_id: 'a\u0000b', email: 'a@example.test' }))],
      [
        'a NUL in the enrolments’ course filter',
        await fetch(`${site.baseUrl}/api/v1/enrolments?course_id=a%00b`, {
          headers: { authorization: `Bearer ${key}` },
        }),
      ],
      [
        'a NUL in the lessons’ course id',
        await fetch(`${site.baseUrl}/api/v1/courses/a%00b/lessons`, { headers: { authorization: `Bearer ${key}` } }),
      ],
    ]
    for (const [name, response] of answers) {
      const body = await response.json()
      expect([name, response.status < 500, body.error?.code, typeof body.error?.message], name).toEqual([
        name,
        true,
        'invalid_request',
        'string',
      ])
    }
  })
})

describe('enrolments on a large course', () => {
  it('answers the new enrolment (201) on a course that already has more than a thousand', async () => {
    const owner = await createCreator(site.db, { plan: 'enterprise' })
    const course = await createCreatorCourse(site.db, owner, { status: 'published' })
    const { key } = await keyFor(owner)
    const stamp = Date.now()
    const holders = await site.db
      .insertInto('users')
      .values(Array.from({ length: 1001 }, (_, i) => ({ email: `holder-${i}-${stamp}@example.test` })))
      .returning('id')
      .execute()
    await site.db
      .insertInto('access_grants')
      .values(
        holders.map((holder) => ({
          user_id: holder.id,
          kind: 'course' as const,
          course_id: course.id,
          source: 'staff' as const,
          granted_by: owner.id,
        })),
      )
      .execute()
    // A learner of the school's (a buyer of another of its courses), enrolled at once.
    const learner = (await sell(site.db, [await ownedCourse(site.db, owner.id, 1000)])).buyer
    const granted = await api('/enrolments', key, {
      method: 'POST',
      body: { course_id: course.id, email: learner.email },
    })
    expect([granted.status, granted.body.learner?.id, granted.body.status]).toEqual([201, learner.id, 'active'])
    const revoked = await api(`/enrolments/${granted.body.id}`, key, { method: 'DELETE' })
    expect([revoked.status, revoked.body.status]).toEqual([200, 'revoked'])
  })
})

describe('rate limit', () => {
  it('sends RateLimit and RateLimit-Policy per key and answers 429 with Retry-After over the limit', async () => {
    const owner = await createCreator(site.db, { plan: 'enterprise' })
    const made = await keyFor(owner)
    const first = await api('/courses', made.key)
    expect(first.headers.get('ratelimit-policy')).toBe('"per-key";q=120;w=60')
    expect(first.headers.get('ratelimit')).toMatch(/^"per-key";r=119;t=\d+$/)
    for (let i = 0; i < 119; i++) await limiter.hit(`api-key:${made.id}`, 60_000)
    const over = await api('/courses', made.key)
    expect([over.status, over.body.error.code]).toEqual([429, 'rate_limited'])
    expect(over.headers.get('ratelimit')).toMatch(/^"per-key";r=0;t=\d+$/)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another key of the same school has its own count.
    expect((await api('/courses', (await keyFor(owner)).key)).status).toBe(200)
  })
})

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 listing every operation, its schemas compile as JSON Schema 2020-12 and describe the answers', async () => {
    const response = await fetch(`${site.baseUrl}/api/v1/openapi.json`)
    expect(response.status).toBe(200)
    const doc = await response.json()
    expect(doc.openapi).toBe('3.1.0')
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(operations.sort()).toEqual(
      [
        'GET /courses',
        'GET /courses/{id}/lessons',
        'GET /learners',
        'GET /enrolments',
        'POST /enrolments',
        'DELETE /enrolments/{id}',
        'GET /enrolment-invitations',
        'DELETE /enrolment-invitations/{id}',
        'GET /orders',
        'GET /earnings',
      ].sort(),
    )
    const ajv = new Ajv2020({ strict: false })
    addFormats(ajv)
    ajv.addSchema({ $id: 'doc', components: doc.components })
    const validator = (name: string) => ajv.compile({ $ref: `doc#/components/schemas/${name}` })
    for (const name of Object.keys(doc.components.schemas)) expect(() => validator(name), name).not.toThrow()
    // The live answers match the schemas the document gives them.
    const owner = await createCreator(site.db, { plan: 'enterprise' })
    await createCreatorCourse(site.db, owner)
    const { key } = await keyFor(owner)
    const checks: [string, string][] = [
      ['/courses', 'CoursePage'],
      ['/enrolments', 'EnrolmentPage'],
      ['/enrolment-invitations', 'EnrolmentInvitationPage'],
      ['/earnings', 'EarningPage'],
    ]
    for (const [path, schema] of checks) {
      const validate = validator(schema)
      expect(validate((await api(path, key)).body), `${path} ${JSON.stringify(validate.errors)}`).toBe(true)
    }
    expect(validator('Error')((await api('/courses', null)).body)).toBe(true)
    const page = await (await fetch(`${site.baseUrl}/developers/api`)).text()
    for (const op of operations) expect(page).toContain(`/api/v1${op.split(' ')[1]}`)
    expect(page).toContain('Needs the scope <code>courses:read</code>.')
  })
})

describe('syncing by cursor while transactions commit out of order', () => {
  /**
   * A client's sync: pages of one row from `cursor`, following next_cursor; it resumes later from sync_cursor (or, on
   * an API without it, the last next_cursor it got).
   */
  async function sync(path: string, key: string, cursor: string | null, idOf: (row: { id: string }) => string) {
    const seen: string[] = []
    let resume = cursor
    let next = cursor
    for (let pages = 0; pages < 50; pages++) {
      const page = await api(`${path}?limit=1${next ? `&cursor=${next}` : ''}`, key)
      expect(page.status).toBe(200)
      seen.push(...page.body.data.map(idOf))
      if (page.body.sync_cursor !== undefined) resume = page.body.sync_cursor ?? resume
      else if (page.body.next_cursor) resume = page.body.next_cursor
      if (!page.body.next_cursor) break
      next = page.body.next_cursor
    }
    return { seen, resume }
  }

  /**
   * Transaction A writes its row first (an earlier time and transaction id) and stays open; B's and C's commit. A
   * client syncing meanwhile must not pass A's place; once A commits, its next syncs return A's row.
   */
  async function outOfOrder(
    path: string,
    idOf: (row: { id: string }) => string,
    write: (db: typeof site.db) => Promise<string>,
    key: string,
  ) {
    const before = await write(site.db)
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let written: (id: string) => void = () => {}
    const aWritten = new Promise<string>((resolve) => (written = resolve))
    const a = site.db.transaction().execute(async (trx) => {
      written(await write(trx))
      await held
    })
    const rowA = await aWritten
    const rowB = await write(site.db)
    const rowC = await write(site.db)

    let first: Awaited<ReturnType<typeof sync>>
    try {
      first = await sync(path, key, null, idOf)
    } finally {
      release()
      await a
    }

    // A committed: the sync from where it stopped returns A's row, then B's and C's. (Other sessions of the cluster
    // may hold the horizon back a moment: the client simply syncs again.)
    const seen = new Set(first.seen)
    let resume = first.resume
    for (let round = 0; round < 20 && ![rowA, rowB, rowC].every((id) => seen.has(id)); round++) {
      const next = await sync(path, key, resume, idOf)
      for (const id of next.seen) seen.add(id)
      resume = next.resume
      if (![rowA, rowB, rowC].every((id) => seen.has(id))) await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect([rowA, rowB, rowC].map((id) => [id, seen.has(id)])).toEqual([rowA, rowB, rowC].map((id) => [id, true]))
    // While A was open, nothing past A's place was served: B and C waited for A to end.
    expect(first.seen).not.toContain(rowA)
    expect(first.seen).not.toContain(rowB)
    expect(first.seen).not.toContain(rowC)
    expect(seen.has(before) || first.seen.length === 0).toBe(true)
  }

  it('shows the owner the open invitations in the studio, newest first, and withdraws one there; nobody else can', async () => {
    const owner = await createCreator(site.db, { plan: 'enterprise' })
    const course = await createCreatorCourse(site.db, owner, { status: 'published', title: 'Raku firing' })
    const { key } = await keyFor(owner)
    const stamp = Date.now().toString(36)
    const [older, newer] = [`older-${stamp}@example.test`, `newer-${stamp}@example.test`]
    const first = await api('/enrolments', key, { method: 'POST', body: { course_id: course.id, email: older } })
    await api('/enrolments', key, { method: 'POST', body: { course_id: course.id, email: newer } })

    const studio = (await callerAs(site.db, owner)).studio
    const listed = await studio.enrolmentInvitations()
    expect(listed.items.map((invite) => [invite.email, invite.courseTitle, invite.courseId])).toEqual([
      [newer, 'Raku firing', course.id],
      [older, 'Raku firing', course.id],
    ])
    expect(listed.more).toBe(false)

    // Another creator sees none of them and cannot withdraw one; a learner is no creator at all.
    const other = (await callerAs(site.db, await createCreator(site.db, { plan: 'enterprise' }))).studio
    expect((await other.enrolmentInvitations()).items).toEqual([])
    await expect(other.withdrawEnrolmentInvitation({ inviteId: first.body.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    const learner = (await callerAs(site.db, await createUser(site.db))).studio
    await expect(learner.enrolmentInvitations()).rejects.toMatchObject({ code: 'FORBIDDEN' })

    expect(await studio.withdrawEnrolmentInvitation({ inviteId: first.body.id })).toEqual({ email: older })
    await expect(studio.withdrawEnrolmentInvitation({ inviteId: first.body.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    expect((await studio.enrolmentInvitations()).items.map((invite) => invite.email)).toEqual([newer])
    const open = await api('/enrolment-invitations', key)
    expect(open.body.data.map((invite: { email: string }) => invite.email)).toEqual([newer])
  })

  raceIt('enrolment invitations: two requests for one address at once get one invitation, mailed once', async () => {
    const owner = await createCreator(site.db, { plan: 'enterprise' })
    const course = await createCreatorCourse(site.db, owner, { status: 'published' })
    const { key } = await keyFor(owner)
    const email = `racing-${Date.now().toString(36)}@example.test`
    const invite = () => api('/enrolments', key, { method: 'POST', body: { course_id: course.id, email } })
    // An uncommitted invitation to the address holds both requests (at its index entry, or behind the first) until
    // both wait; then it is undone, and the two meet each other.
    const answers = await whileHeld(
      site.db,
      (trx) =>
        trx
          .insertInto('course_enrolment_invites')
          .values({
            course_id: course.id,
            email,
            token_hash: randomBytes(32),
            invited_by: owner.id,
            expires_at: new Date(Date.now() + 86_400_000),
          })
          .execute(),
      () => Promise.all([invite(), invite()]),
      { waiters: 2 },
      'rollback',
    )
    expect(answers.map((answer) => answer.status)).toEqual([202, 202])
    expect(answers[0]?.body.id).toBe(answers[1]?.body.id)
    const mails = await site.db.selectFrom('mail_outbox').select('id').where('to_address', '=', email).execute()
    expect(mails).toHaveLength(1)
  })

  raceIt('enrolments: a grant committed after a later one was read is still returned', async () => {
    const owner = await createCreator(site.db, { plan: 'enterprise' })
    const key = (await keyFor(owner)).key
    const course = await createCreatorCourse(site.db, owner, { status: 'published' })
    await outOfOrder(
      '/enrolments',
      (row) => row.id,
      async (db) => {
        // The ledger's insert alone: its holder effects (students_count) bump the catalogue's version row, which
        // would queue B behind A; any other writer of a grant may commit out of order.
        const learner = await createUser(site.db)
        const row = await db
          .insertInto('access_grants')
          .values({ user_id: learner.id, kind: 'course', course_id: course.id, source: 'staff', granted_by: owner.id })
          .returning('id')
          .executeTakeFirstOrThrow()
        return row.id
      },
      key,
    )
  })

  raceIt(
    'orders: an order paid in a transaction that commits after a later one was read is still returned',
    async () => {
      const owner = await createCreator(site.db, { plan: 'enterprise' })
      const key = (await keyFor(owner)).key
      const course = await ownedCourse(site.db, owner.id, 4900)
      await outOfOrder(
        '/orders',
        (row) => (row as unknown as { order_id: string }).order_id,
        async (db) => {
          // Placed (committed) first, then paid in the writer's transaction: paid_at its time, the trigger its xid.
          // Only the order's own columns (the grant's holder effects would queue B behind A on the catalogue version).
          const buyer = await createUser(site.db)
          const reference = `SYNC-${Math.random().toString(36).slice(2, 8).toUpperCase()}`
          const orderId = await placeOrder(site.db, {
            userId: buyer.id,
            courses: [course],
            reference,
            method: 'bank_transfer',
          })
          await db
            .updateTable('orders')
            .set({ status: 'paid', paid_at: new Date() })
            .where('id', '=', orderId)
            .execute()
          return orderId
        },
        key,
      )
    },
  )
})
