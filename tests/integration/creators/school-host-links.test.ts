// Links on a school's own domain (issue 36, decision 0063): a request that came on the school's verified hostname
// mails links to that hostname and sends Stripe's return pages back to it; the same request on the main host (or
// under a Host nobody verified) uses PUBLIC_URL. The real server over HTTP, with the local fake Stripe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSession, SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { shopCaller } from '../../support/shop.ts'

const SCHOOL_HOST = 'learn.hostlinks.test'
let shop: PaymentsServer
let courseId: string
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer()
  const owner = await createCreator(db(), { plan: 'pro' })
  courseId = (await createCreatorCourse(db(), owner, { status: 'published' })).id
  await (await shopCaller(db(), owner)).schools.saveSettings({ name: 'Host Links School', slug: 'host-links' })
  const school = await db()
    .selectFrom('schools')
    .select('id')
    .where('owner_id', '=', owner.id)
    .executeTakeFirstOrThrow()
  await db()
    .insertInto('school_domains')
    .values({ school_id: school.id, hostname: SCHOOL_HOST, verification_token: 'sf-proof', verified_at: new Date() })
    .execute()
}, 120_000)
afterAll(() => shop?.close())

async function trpc(path: string, input: unknown, host: string, cookie = '') {
  const response = await shop.server.app.inject({
    method: 'POST',
    url: `/trpc/${path}`,
    headers: { host, origin: `http://${host}`, cookie, 'content-type': 'application/json' },
    payload: JSON.stringify(input ?? {}),
  })
  return {
    status: response.statusCode,
    data: (response.json() as { result?: { data?: unknown } }).result?.data,
    cookie: String(response.headers['set-cookie'] ?? '').split(';')[0] ?? '',
  }
}

async function latestLink(to: string, kind: string) {
  const mail = await db()
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', to)
    .where('kind', '=', kind)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow()
  const link = /(https?:\/\/\S+)/.exec(mail.text_body)?.[1]
  if (!link) throw new Error(`no link in the ${kind} mail`)
  return new URL(link)
}

async function kindOfResetMail(user: TestUser) {
  const row = await db()
    .selectFrom('mail_outbox')
    .select('kind')
    .where('to_address', '=', user.email)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow()
  return row.kind
}

describe('links from a request on a school’s verified domain', { timeout: 120_000 }, () => {
  it('a password-reset mail asked on a school’s domain links to the platform’s host, where passwords are typed', async () => {
    const user = await createUser(db())
    expect((await trpc('auth.requestPasswordReset', { email: user.email }, '127.0.0.1')).status).toBe(200)
    const kind = await kindOfResetMail(user)
    const main = await latestLink(user.email, kind)
    expect(main.hostname).not.toBe(SCHOOL_HOST)

    // Decision 0063: no password is typed under a school's domain (its owner controls where the name points).
    expect((await trpc('auth.requestPasswordReset', { email: user.email }, SCHOOL_HOST)).status).toBe(200)
    const onSchool = await latestLink(user.email, kind)
    expect(onSchool.origin).toBe(main.origin)
    expect(onSchool.pathname).toBe(main.pathname)
    // And the new password is refused there.
    const reset = await trpc('auth.resetPassword', { token: 'x'.repeat(40), password: 'N3w-password!' }, SCHOOL_HOST)
    expect(reset.status).toBe(403)
  })

  it('Stripe’s success and cancel pages are on the school’s domain when the checkout started there', async () => {
    const returnPages = async (host: string) => {
      const buyer = await createUser(db())
      // Signed in on that site (on a school's domain through the platform's hand-off: sign-in-handoff.test.ts).
      const { token } = await createSession(db(), buyer.id, true, undefined, {
        siteHost: host === SCHOOL_HOST ? SCHOOL_HOST : null,
      })
      const login = { cookie: `${SESSION_COOKIE}=${token}` }
      expect((await trpc('cart.add', { kind: 'course', courseId }, host, login.cookie)).status).toBe(200)
      const started = await trpc('payments.start', { currency: 'USD', method: 'card' }, host, login.cookie)
      expect(started.status).toBe(200)
      const sessionId = new URL((started.data as { url: string }).url).pathname.split('/').pop() ?? ''
      const session = shop.fake.sessions.get(sessionId)
      return { success: new URL(session?.success_url ?? ''), cancel: new URL(session?.cancel_url ?? '') }
    }
    const onSchool = await returnPages(SCHOOL_HOST)
    expect(onSchool.success.hostname).toBe(SCHOOL_HOST)
    expect(onSchool.cancel.hostname).toBe(SCHOOL_HOST)
    const onMain = await returnPages('127.0.0.1')
    expect(onMain.success.hostname).not.toBe(SCHOOL_HOST)
    expect(onMain.cancel.hostname).not.toBe(SCHOOL_HOST)
    expect(onSchool.success.pathname).toBe(onMain.success.pathname)
  })
})
