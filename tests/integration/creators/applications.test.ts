// Applying to teach: one open application, a declined person again after 30 days, the attached file judged by
// its bytes (a CV here; a sample video over tus in application-video-tus.test.ts) and read only by staff and the
// applicant; staff decide (admins and up), audited and e-mailed; approval makes a creator with an instructor profile.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { TRPCError } from '@trpc/server'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { ATTACHMENT_REFUSED } from '../../../src-server/http/creator-applications.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { APPLICATION_MESSAGES } from '../../../src-shared/schemas/creators.ts'
import { callerAs, createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { trpcPost } from '../../support/http.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile({ env: { STAFF_2FA: 'required' } })

const PROPOSAL = 'A practical course on SQL window functions for analysts who know SELECT and GROUP BY. '.repeat(4)
const application = (overrides: Record<string, unknown> = {}) => ({
  headline: 'Data analyst and SQL trainer',
  categories: ['development', 'business'],
  proposal: PROPOSAL,
  links: { website: 'https://example.com', linkedin: 'https://www.linkedin.com/in/someone', youtube: '' },
  ...overrides,
})

async function cookieOf(user: TestUser) {
  const { token } = await createSessionToken(site.db, user.id)
  return `${SESSION_COOKIE}=${token}`
}

function upload(cookie: string, bytes: Buffer, name: string) {
  const body = new FormData()
  body.append('file', new Blob([new Uint8Array(bytes)]), name)
  return fetch(`${site.baseUrl}/api/creator-applications/attachment`, {
    method: 'POST',
    body,
    headers: { cookie, origin: 'http://storefront.test' },
  })
}

async function applyOverHttp(cookie: string, input: unknown) {
  const response = await trpcPost(site.baseUrl, 'creators.submitApplication', input, { cookie })
  return {
    status: response.status,
    body: (await response.json()) as { result?: { data: { id: string } }; error?: { message: string } },
  }
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal')
    },
    (error: TRPCError) => ({ code: error.code, message: error.message }),
  )

describe('creators.submitApplication', () => {
  it('stores one open application; a second is a conflict; links and bounds are checked', async () => {
    const user = await createUser(site.db)
    const caller = await callerAs(site.db, user)
    const { id } = await caller.creators.submitApplication(application())
    const row = await site.db
      .selectFrom('creator_applications')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row.status).toBe('submitted')
    expect(row.category_ids).toHaveLength(2)
    expect(row.links).toEqual({ website: 'https://example.com', linkedin: 'https://www.linkedin.com/in/someone' })

    expect(await refusal(caller.creators.submitApplication(application()))).toEqual({
      code: 'CONFLICT',
      message: APPLICATION_MESSAGES.open,
    })
    const mine = await caller.creators.myApplication()
    expect(mine?.status).toBe('submitted')
    expect(mine?.categories.map((c) => c.slug)).toEqual(['development', 'business'])

    const otherUser = await createUser(site.db)
    const other = await callerAs(site.db, otherUser)
    for (const bad of [
      application({ proposal: 'too short' }),
      application({ proposal: 'x'.repeat(5001) }),
      application({ categories: [] }),
      application({ categories: ['development', 'business', 'marketing', 'design', 'a', 'b'] }),
      application({ links: { linkedin: 'https://evil.example/in/someone' } }),
      application({ links: { youtube: 'http://youtube.com/@me' } }),
      application({ links: { website: 'javascript:alert(1)' } }),
      application({ headline: 'x'.repeat(10_000) }),
    ]) {
      expect((await refusal(other.creators.submitApplication(bad))).code).toBe('BAD_REQUEST')
    }
    expect(
      (await refusal(other.creators.submitApplication(application({ categories: ['no-such-category'] })))).code,
    ).toBe('BAD_REQUEST')
    expect(
      await site.db.selectFrom('creator_applications').select('id').where('user_id', '=', otherUser.id).execute(),
    ).toEqual([])
  })

  it('refuses visitors, and rate-limits submissions per person', async () => {
    const visitor = await callerAs(site.db, null)
    expect((await refusal(visitor.creators.submitApplication(application()))).code).toBe('UNAUTHORIZED')
    const user = await createUser(site.db)
    const caller = await callerAs(site.db, user)
    // The first is stored, the next four are conflicts (each counted), the sixth is refused before it reads anything.
    for (let i = 0; i < 5; i++) await caller.creators.submitApplication(application()).catch(() => undefined)
    expect(await refusal(caller.creators.submitApplication(application()))).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message: APPLICATION_MESSAGES.tooMany,
    })
  })

  it('lets a declined person apply again 30 days after the decision, and says from when', async () => {
    const admin = await createUser(site.db, { role: 'admin' })
    const user = await createUser(site.db)
    const caller = await callerAs(site.db, user)
    const { id } = await caller.creators.submitApplication(application())
    await (await callerAs(site.db, admin)).admin.creatorApplications.decline({
      id,
      reason: 'Please show more teaching experience.',
    })
    const mine = await caller.creators.myApplication()
    expect(mine).toMatchObject({ status: 'declined', decisionReason: 'Please show more teaching experience.' })
    const again = await refusal(caller.creators.submitApplication(application()))
    expect(again.code).toBe('CONFLICT')
    expect(again.message).toContain(`You can apply again from ${mine?.reapplyFrom?.slice(0, 10)}`)

    // 29 days later: still refused; 31 days: accepted.
    const moveDecision = (days: number) =>
      site.db
        .updateTable('creator_applications')
        .set({ decided_at: new Date(Date.now() - days * 86_400_000) })
        .where('id', '=', id)
        .execute()
    await moveDecision(29)
    expect((await refusal(caller.creators.submitApplication(application()))).code).toBe('CONFLICT')
    await moveDecision(31)
    const second = await caller.creators.submitApplication(application())
    expect(second.id).not.toBe(id)
  })
})

describe('staff decisions', () => {
  it('declines with a reason: audited, mailed, and only admins and up may; editors and viewers read', async () => {
    const user = await createUser(site.db)
    const { id } = await (await callerAs(site.db, user)).creators.submitApplication(application())
    for (const role of ['editor', 'viewer'] as const) {
      const staff = await callerAs(site.db, await createUser(site.db, { role }))
      const list = await staff.admin.creatorApplications.list({ status: 'submitted', page: 1 })
      expect(list.items.map((item) => item.id)).toContain(id)
      expect((await staff.admin.creatorApplications.detail({ id })).applicant.email).toBe(user.email)
      expect(
        (await refusal(staff.admin.creatorApplications.decline({ id, reason: 'Not this time, sorry.' }))).code,
      ).toBe('FORBIDDEN')
      expect((await refusal(staff.admin.creatorApplications.approve({ id }))).code).toBe('FORBIDDEN')
    }
    const customer = await callerAs(site.db, await createUser(site.db))
    expect((await refusal(customer.admin.creatorApplications.detail({ id }))).code).toBe('FORBIDDEN')

    const admin = await createUser(site.db, { role: 'admin' })
    const adminCaller = await callerAs(site.db, admin)
    expect((await refusal(adminCaller.admin.creatorApplications.decline({ id, reason: 'no' }))).code).toBe(
      'BAD_REQUEST',
    )
    await adminCaller.admin.creatorApplications.decline({ id, reason: 'We need a more detailed course outline.' })
    const row = await site.db
      .selectFrom('creator_applications')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      status: 'declined',
      decision_reason: 'We need a more detailed course outline.',
      decided_by: admin.id,
    })
    const mail = await latestMailTo(site.db, user.email, 'creator-application-declined')
    expect(mail?.text_body).toContain('We need a more detailed course outline.')
    const auditRow = await site.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', id)
      .executeTakeFirstOrThrow()
    expect(auditRow).toMatchObject({
      action: 'creator_application.decline',
      actor_id: admin.id,
      entity_type: 'creator_application',
    })
    // Decided once: a second decision is a conflict, and changes nothing.
    expect((await refusal(adminCaller.admin.creatorApplications.approve({ id }))).code).toBe('CONFLICT')
    expect(await site.db.selectFrom('creators').select('user_id').where('user_id', '=', user.id).execute()).toEqual([])
  })

  it('approves: the account becomes a creator with an instructor profile (unique slug), audited and mailed', async () => {
    const admin = await createUser(site.db, { role: 'admin' })
    const adminCaller = await callerAs(site.db, admin)
    const first = await createUser(site.db, { firstName: 'Ada', lastName: 'Lovelace' })
    const second = await createUser(site.db, { firstName: 'Ada', lastName: 'Lovelace' })
    const slugs: string[] = []
    for (const user of [first, second]) {
      const caller = await callerAs(site.db, user)
      expect((await caller.auth.me())?.isCreator).toBe(false)
      expect((await refusal(caller.creators.profile())).code).toBe('FORBIDDEN')
      const { id } = await caller.creators.submitApplication(application())
      const result = await adminCaller.admin.creatorApplications.approve({ id })
      slugs.push(result.slug)
      expect((await caller.auth.me())?.isCreator).toBe(true)
      const profile = await caller.creators.profile()
      expect(profile).toMatchObject({ name: 'Ada Lovelace', title: 'Instructor', slug: result.slug })
      const instructor = await site.db
        .selectFrom('instructors')
        .select(['user_id', 'slug'])
        .where('id', '=', profile.instructorId)
        .executeTakeFirstOrThrow()
      expect(instructor.user_id).toBe(user.id)
      expect((await latestMailTo(site.db, user.email, 'creator-application-approved'))?.text_body).toContain('/studio')
      const auditRow = await site.db
        .selectFrom('audit_log')
        .selectAll()
        .where('entity_id', '=', id)
        .executeTakeFirstOrThrow()
      expect(auditRow.action).toBe('creator_application.approve')
      // A creator never applies again.
      expect(await refusal(caller.creators.submitApplication(application()))).toEqual({
        code: 'CONFLICT',
        message: APPLICATION_MESSAGES.creator,
      })
    }
    expect(slugs).toEqual(['ada-lovelace', 'ada-lovelace-2'])
    // Staff roles never imply the capability.
    expect((await adminCaller.auth.me())?.isCreator).toBe(false)
  })

  it('filters the queue by status, category and age', async () => {
    const admin = await callerAs(site.db, await createUser(site.db, { role: 'admin' }))
    const old = await (await callerAs(site.db, await createUser(site.db))).creators.submitApplication(
      application({ categories: ['design'] }),
    )
    await site.db
      .updateTable('creator_applications')
      .set({ created_at: sql`now() - interval '10 days'` })
      .where('id', '=', old.id)
      .execute()
    const fresh = await (await callerAs(site.db, await createUser(site.db))).creators.submitApplication(
      application({ categories: ['marketing'] }),
    )
    const ids = async (input: Parameters<typeof admin.admin.creatorApplications.list>[0]) =>
      (await admin.admin.creatorApplications.list(input)).items.map((item) => item.id)
    expect(await ids({ category: 'design', page: 1 })).toEqual([old.id])
    expect(await ids({ category: 'marketing', page: 1 })).toEqual([fresh.id])
    const aged = await ids({ status: 'submitted', olderThanDays: 7, page: 1 })
    expect(aged).toContain(old.id)
    expect(aged).not.toContain(fresh.id)
    expect(await ids({ status: 'approved', category: 'design', page: 1 })).toEqual([])
  })
})

describe('the attached file', () => {
  it('accepts a PDF by content and size; refuses a video (it goes over tus), other bytes and oversize files', async () => {
    const user = await createUser(site.db)
    const cookie = await cookieOf(user)
    const pdf = await upload(cookie, Buffer.from('%PDF-1.4\n% a CV\n'), 'cv.pdf')
    expect(pdf.status).toBe(200)
    const stored = (await pdf.json()) as { key: string; contentType: string }
    expect(stored.key.startsWith(`private/applications/${user.id}/`)).toBe(true)
    expect(stored.contentType).toBe('application/pdf')

    // A sample video is sent over tus (application-video-tus.test.ts), not here.
    const video = await readFile(path.resolve('db/seed/media/recap.webm'))
    const refusedVideo = await upload(cookie, video, 'sample.webm')
    expect(refusedVideo.status).toBe(400)
    expect(((await refusedVideo.json()) as { message: string }).message).toBe(ATTACHMENT_REFUSED)
    expect((await upload(cookie, Buffer.from('MZ\x90\x00 an exe renamed'), 'cv.pdf')).status).toBe(400)
    // A PDF over 10 MB.
    const bigPdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(10 * 1024 * 1024)])
    expect((await upload(cookie, bigPdf, 'big.pdf')).status).toBe(413)
    expect((await upload('', video, 'v.webm')).status).toBe(401)
  })

  it('goes with the application; staff and the applicant download it, nobody else; a foreign key is refused', async () => {
    const applicant = await createUser(site.db)
    const cookie = await cookieOf(applicant)
    const pdfBytes = Buffer.from('%PDF-1.4\n% curriculum vitae\n')
    const stored = (await (await upload(cookie, pdfBytes, 'my cv.pdf')).json()) as { key: string; name: string }

    // Another person cannot claim someone's uploaded file.
    const intruder = await createUser(site.db)
    const intruderCookie = await cookieOf(intruder)
    const stolen = await applyOverHttp(intruderCookie, application({ attachment: stored }))
    expect(stolen.status).toBe(400)
    expect(stolen.body.error?.message).toBe(APPLICATION_MESSAGES.attachmentMissing)

    const applied = await applyOverHttp(cookie, application({ attachment: stored }))
    expect(applied.status).toBe(200)
    const id = applied.body.result?.data.id as string
    const row = await site.db
      .selectFrom('creator_applications')
      .select('attachment')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row.attachment).toMatchObject({
      contentType: 'application/pdf',
      sizeBytes: pdfBytes.length,
      name: 'my cv.pdf',
    })

    const download = (who: string) =>
      fetch(`${site.baseUrl}/api/creator-applications/${id}/attachment`, { headers: { cookie: who } })
    const own = await download(cookie)
    expect(own.status).toBe(200)
    expect(own.headers.get('content-type')).toBe('application/pdf')
    expect(Buffer.from(await own.arrayBuffer()).equals(pdfBytes)).toBe(true)
    const viewer = await createUser(site.db, { role: 'viewer' })
    expect((await download(await cookieOf(viewer))).status).toBe(200)
    // An admin without the second factor STAFF_2FA requires has no staff reach here.
    expect((await download(await cookieOf(await createUser(site.db, { role: 'admin' })))).status).toBe(404)
    expect((await download(intruderCookie)).status).toBe(404)
    expect((await download('')).status).toBe(401)

    // Another customer cannot read someone's application through the API either.
    const intruderCaller = await callerAs(site.db, intruder)
    expect(await intruderCaller.creators.myApplication()).toBeNull()
  })
})
