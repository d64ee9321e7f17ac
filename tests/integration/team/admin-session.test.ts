// Admin log-in over HTTP (cookie, staff only, the spec's message), the owner bootstrap, the course image upload,
// the dashboard's counts and the audit log page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authenticateWithPassword } from '../../../src-server/auth/login.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { ensureOwner } from '../../../src-server/team/owner.ts'
import { ADMIN_LOGIN_FAILED } from '../../../src-shared/schemas/admin.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createSessionToken, createUser } from '../../support/factories.ts'
import { startTestServer, type TestServer } from '../../support/http.ts'

let database: DatabaseHandle
let server: TestServer
let baseUrl: string

beforeAll(async () => {
  database = await createTestDatabase()
  server = await startTestServer(database.db)
  baseUrl = server.baseUrl
})
afterAll(async () => {
  await server.stop()
  await database.close()
})

interface TrpcBody {
  result: { data: unknown }
  error: { message: string }
}

async function login(email: string, password: string) {
  const response = await fetch(`${baseUrl}/trpc/admin.session.login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password }),
  })
  return {
    status: response.status,
    cookie: response.headers.get('set-cookie'),
    body: (await response.json()) as TrpcBody,
  }
}

describe('admin log-in', () => {
  it('lets staff in with an HttpOnly session cookie that then opens admin procedures', async () => {
    const editor = await createUser(database.db, { role: 'editor', firstName: 'Eddie', lastName: 'Tor' })
    const result = await login(editor.email.toUpperCase(), editor.password)
    expect(result.status).toBe(200)
    expect(result.body.result.data).toEqual({
      name: 'Eddie Tor',
      role: 'editor',
      twoFactor: false,
      mustEnrolTwoFactor: false,
    })
    expect(result.cookie).toMatch(/^session=[a-z0-9]+\.[a-z0-9]+;.*HttpOnly/i)
    const cookie = result.cookie!.split(';')[0]!
    const me = await fetch(`${baseUrl}/trpc/admin.session.me`, { headers: { cookie } })
    expect(((await me.json()) as TrpcBody).result.data).toMatchObject({ email: editor.email, role: 'editor' })
  })

  it('refuses customers, wrong passwords and unknown e-mails with the same message and no cookie', async () => {
    const customer = await createUser(database.db, { role: 'customer' })
    const viewer = await createUser(database.db, { role: 'viewer' })
    for (const [email, password] of [
      [customer.email, customer.password],
      [viewer.email, 'wrong-password'],
      ['nobody@example.test', 'whatever-1'],
    ] as const) {
      const result = await login(email, password)
      expect(result.status).toBe(401)
      expect(result.body.error.message).toBe(ADMIN_LOGIN_FAILED)
      expect(result.cookie).toBeNull()
    }
  })

  it('logs out: the session row is gone and the cookie cleared', async () => {
    const viewer = await createUser(database.db, { role: 'viewer' })
    const { token, session } = await createSessionToken(database.db, viewer.id)
    const response = await fetch(`${baseUrl}/trpc/admin.session.logout`, {
      method: 'POST',
      headers: { cookie: `session=${token}`, 'content-type': 'application/json', origin: baseUrl },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('set-cookie')).toMatch(/^session=;/)
    expect(
      await database.db.selectFrom('sessions').select('id').where('id', '=', session.id).executeTakeFirst(),
    ).toBeUndefined()
  })
})

describe('owner bootstrap', () => {
  it('creates the owner when absent, and never resets an existing password', async () => {
    expect(await ensureOwner(database.db, 'Owner@Example.test', 'first-password')).toBe('created')
    expect(await authenticateWithPassword(database.db, 'owner@example.test', 'first-password')).toMatchObject({
      role: 'super_admin',
    })
    expect(await ensureOwner(database.db, 'owner@example.test', 'second-password')).toBe('exists')
    expect(await authenticateWithPassword(database.db, 'owner@example.test', 'second-password')).toBeNull()
    const customer = await createUser(database.db, { role: 'customer' })
    expect(await ensureOwner(database.db, customer.email, 'ignored-password')).toBe('promoted')
    expect(await authenticateWithPassword(database.db, customer.email, customer.password)).toMatchObject({
      role: 'super_admin',
    })
  })
})

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

async function upload(cookie: string | null, bytes: Buffer, query = '') {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)]), 'picture.png')
  const response = await fetch(`${baseUrl}/api/admin/course-image${query}`, {
    method: 'POST',
    body: form,
    headers: cookie ? { cookie, origin: baseUrl } : { origin: baseUrl },
  })
  return { status: response.status, body: (await response.json()) as { url?: string; message: string } }
}

describe('POST /api/admin/course-image', () => {
  it('stores an image for editors and answers with its URL and the spec message', async () => {
    const editor = await createUser(database.db, { role: 'editor' })
    const cookie = `session=${(await createSessionToken(database.db, editor.id)).token}`
    const first = await upload(cookie, PNG)
    expect(first).toMatchObject({ status: 200, body: { message: 'Image uploaded successfully!' } })
    expect(first.body.url).toMatch(/^\/uploads\/courses\/.+\.png$/)
    const served = await fetch(`${baseUrl}${first.body.url}`)
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG)
    expect((await upload(cookie, PNG, '?replace=1')).body.message).toBe('Image updated successfully!')
  })

  it('refuses non-images, oversized files, viewers and visitors', async () => {
    const editor = await createUser(database.db, { role: 'editor' })
    const cookie = `session=${(await createSessionToken(database.db, editor.id)).token}`
    expect(await upload(cookie, Buffer.from('<svg onload=alert(1)>'))).toEqual({
      status: 400,
      body: { error: 'Bad Request', message: 'Please select an image file' },
    })
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)])
    expect(await upload(cookie, big)).toMatchObject({
      status: 413,
      body: { message: 'Image size should be less than 2MB' },
    })
    const viewer = await createUser(database.db, { role: 'viewer' })
    const viewerCookie = `session=${(await createSessionToken(database.db, viewer.id)).token}`
    expect((await upload(viewerCookie, PNG)).status).toBe(403)
    expect((await upload(null, PNG)).status).toBe(401)
  })

  it('answers 400 with its message to a body the multipart parser cannot read (not 500)', async () => {
    const editor = await createUser(database.db, { role: 'editor' })
    const cookie = `session=${(await createSessionToken(database.db, editor.id)).token}`
    const malformed = [
      ['multipart/form-data', '--x\r\nno boundary given'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n'],
      ['text/plain', 'not multipart at all'],
    ]
    for (const [type, body] of malformed) {
      const response = await fetch(`${baseUrl}/api/admin/course-image`, {
        method: 'POST',
        headers: { cookie, origin: baseUrl, 'content-type': type! },
        body,
      })
      expect({ type, status: response.status, body: await response.json() }).toEqual({
        type,
        status: 400,
        body: { error: 'Bad Request', message: 'Please select an image file' },
      })
    }
  })
})

describe('dashboard and audit log', () => {
  it('counts courses, categories and team members in the database', async () => {
    const viewer = await createUser(database.db, { role: 'viewer' })
    const { counts } = await (await callerAs(database.db, viewer)).admin.dashboard.summary()
    const courses = await database.db.selectFrom('courses').select('id').where('status', '!=', 'archived').execute()
    const categories = await database.db.selectFrom('categories').select('id').execute()
    const team = await database.db.selectFrom('users').select('id').where('role', '!=', 'customer').execute()
    expect(counts).toMatchObject({ courses: courses.length, categories: categories.length, teamMembers: team.length })
    await createUser(database.db, { role: 'editor' })
    expect((await (await callerAs(database.db, viewer)).admin.dashboard.summary()).counts.teamMembers).toBe(
      team.length + 1,
    )
  })

  it('tells when the next Premium webinar is: not a course’s session, nor a cancelled or past one', async () => {
    const viewer = await createUser(database.db, { role: 'viewer' })
    const next = async () =>
      (await (await callerAs(database.db, viewer)).admin.dashboard.summary()).counts.nextPremiumWebinar
    expect(await next()).toBeNull()
    const host = await createUser(database.db, { role: 'editor' })
    const course = await database.db.selectFrom('courses').select('id').limit(1).executeTakeFirstOrThrow()
    const inDays = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000)
    const session = (startsAt: Date, extra: { course_id?: string; cancelled_at?: Date } = {}) =>
      database.db
        .insertInto('live_sessions')
        .values({
          host_id: host.id,
          title: 'Office hours',
          description: '',
          starts_at: startsAt,
          duration_minutes: 60,
          time_zone: 'UTC',
          capacity: 100,
          join_url: 'https://meet.example.test/x',
          ...extra,
        })
        .execute()
    await session(inDays(-2))
    await session(inDays(3), { course_id: course.id })
    await session(inDays(4), { cancelled_at: new Date() })
    expect(await next()).toBeNull()
    const first = inDays(10)
    await session(inDays(40))
    await session(first)
    expect(await next()).toBe(first.toISOString())
  })

  it('shows admins every change, newest first, with who, what, before and after', async () => {
    const admin = await createUser(database.db, { role: 'admin', email: 'auditor@example.test' })
    const caller = await callerAs(database.db, admin)
    const category = await caller.admin.categories.create({ name: 'Audited', description: '' })
    await caller.admin.categories.update({ id: category.id, name: 'Audited twice', description: '' })
    const { items, total } = await caller.admin.audit.list({ page: 1 })
    expect(total).toBeGreaterThanOrEqual(2)
    expect(items[0]).toMatchObject({
      actorEmail: 'auditor@example.test',
      action: 'category.update',
      entityId: category.id,
      before: { name: 'Audited' },
      after: { name: 'Audited twice' },
    })
    expect(items[1]).toMatchObject({ action: 'category.create', before: null })
  })
})

describe('admin log-in limit', () => {
  it('refuses further attempts after 5 failures for one e-mail and address, even with the right password', async () => {
    const admin = await createUser(database.db, { role: 'admin' })
    for (let i = 0; i < 5; i++) expect((await login(admin.email, `wrong-${i}`)).status).toBe(401)
    const blocked = await login(admin.email, admin.password)
    expect(blocked.status).toBe(429)
    expect(blocked.body.error.message).toBe('Too many login attempts. Please try again in 15 minutes.')
    expect(blocked.cookie).toBeNull()
  })

  it('does not count successful log-ins', async () => {
    const admin = await createUser(database.db, { role: 'admin' })
    for (let i = 0; i < 4; i++) expect((await login(admin.email, `wrong-${i}`)).status).toBe(401)
    for (let i = 0; i < 6; i++) expect((await login(admin.email, admin.password)).status).toBe(200)
    expect((await login(admin.email, 'wrong-again')).status).toBe(401)
    expect((await login(admin.email, admin.password)).status).toBe(429)
  })
})
