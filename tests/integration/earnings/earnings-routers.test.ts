// The creator's earnings procedures and statement downloads, and staff finance (issue 31): a creator reads only
// their own ledger — per procedure and per route creator B never sees A's entries or statements — balances show
// pending, available, paid out and what is owed after a refund of money already paid; setting up payouts goes
// through Stripe's hosted onboarding; staff finance is admin-only, pausing payouts the owner's alone, audited.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { releaseDueHolds } from '../../../src-server/earnings/shares.ts'
import { nextPayoutDate } from '../../../src-server/flows/creator-earnings-view.ts'
import { PAYOUTS_STRIPE_FAILED, runPayouts } from '../../../src-server/flows/creator-payouts.ts'
import { refundOrder } from '../../../src-server/flows/refunds.ts'
import { createStripeApi } from '../../../src-server/payments/stripe.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { ownedCourse, sell } from '../../support/earnings.ts'
import { createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { freePort } from '../../support/free-port.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { pdfText } from '../../support/pdf.ts'
import { shopCaller } from '../../support/shop.ts'
import { startSilentServer } from '../../support/silent-server.ts'

let shop: PaymentsServer
let creatorA: TestUser
let creatorB: TestUser
let admin: TestUser
let sale: Awaited<ReturnType<typeof sell>>
let courseTitle: string
const db = () => shop.database.db
const DAY = 86_400_000
const month = () => new Date().toISOString().slice(0, 7)
const caller = (user: TestUser | null) => shopCaller(db(), user, shop.payments)

beforeAll(async () => {
  shop = await startPaymentsServer({ staffTwoFactor: 'optional' })
  admin = await createUser(db(), { role: 'admin' })
  creatorA = await createCreator(db(), { plan: 'pro', firstName: 'Ada' })
  creatorB = await createCreator(db(), { plan: 'basic', firstName: 'Bea' })
  const course = await ownedCourse(db(), creatorA.id, 4999, 'Rust from scratch')
  courseTitle = course.title
  sale = await sell(db(), [course])
  await sell(db(), [await ownedCourse(db(), creatorB.id, 2000, 'B’s own course')])
})
afterAll(() => shop.close())

async function download(user: TestUser | null, path: string) {
  const headers: Record<string, string> = {}
  if (user) headers.cookie = `${SESSION_COOKIE}=${(await createSessionToken(db(), user.id)).token}`
  const base = `http://127.0.0.1:${(shop.server.app.server.address() as { port: number }).port}`
  return fetch(`${base}${path}`, { headers, signal: AbortSignal.timeout(10_000) })
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'OK',
    (error) => (error instanceof TRPCError ? error.code : String(error)),
  )

describe('earnings router', () => {
  it('overview: balances per currency, the next payout date, the account state and the plan’s fee', async () => {
    const overview = await (await caller(creatorA)).earnings.overview()
    // Pro: 5 % of 49.99 = 2.50, the creator's 47.49, pending for 30 days.
    expect(overview.balances).toEqual([
      { currency: 'USD', pendingMinor: 4749, availableMinor: 0, paidOutMinor: 0, owedMinor: 0 },
    ])
    expect(overview.feeBasisPoints).toBe(500)
    expect(overview.planId).toBe('pro')
    expect(overview.payoutAccount).toMatchObject({ state: 'not_set_up' })
    expect(overview.nextPayoutAt).toEqual(nextPayoutDate(new Date()))
    expect((await (await caller(creatorB)).earnings.overview()).feeBasisPoints).toBe(1000)
  })

  it('next payout date: the 1st of next month at 06:00 UTC (today’s, before 06:00 on the 1st)', () => {
    expect(nextPayoutDate(new Date('2026-11-15T12:00:00Z')).toISOString()).toBe('2026-12-01T06:00:00.000Z')
    expect(nextPayoutDate(new Date('2026-12-31T23:59:00Z')).toISOString()).toBe('2027-01-01T06:00:00.000Z')
    expect(nextPayoutDate(new Date('2026-12-01T05:00:00Z')).toISOString()).toBe('2026-12-01T06:00:00.000Z')
    expect(nextPayoutDate(new Date('2026-12-01T06:00:00Z')).toISOString()).toBe('2027-01-01T06:00:00.000Z')
  })

  it('entries: the caller’s own, with the fact behind each, newest first', async () => {
    const a = await (await caller(creatorA)).earnings.entries({ page: 1 })
    expect(a.total).toBe(1)
    expect(a.entries[0]).toMatchObject({
      kind: 'sale',
      description: `Sale of ${courseTitle} (order ${sale.reference})`,
      currency: 'USD',
      pendingMinor: 4749,
      availableMinor: 0,
    })
    const b = await (await caller(creatorB)).earnings.entries({ page: 1 })
    expect(b.entries.map((entry) => entry.description).join()).not.toContain(courseTitle)
    expect(b.entries).toHaveLength(1)
    await expect((await caller(creatorA)).earnings.entries({ page: 0 })).rejects.toThrow(/Pages start at 1/)
  })

  it('monthly: 12 months per currency, empty months zero, this month’s sale counted', async () => {
    const monthly = await (await caller(creatorA)).earnings.monthly()
    expect(monthly.months).toHaveLength(12)
    expect(monthly.months.at(-1)).toBe(month())
    const usd = monthly.series.find((series) => series.currency === 'USD')!
    expect(usd.months).toHaveLength(12)
    expect(usd.months.at(-1)).toEqual({
      month: month(),
      earnedMinor: 4749,
      refundedMinor: 0,
      feesMinor: 0, // paid by staff: no processor took a fee
      netMinor: 4749,
      paidOutMinor: 0,
    })
    expect(usd.months.slice(0, 11).every((m) => m.earnedMinor === 0 && m.paidOutMinor === 0)).toBe(true)
    expect(monthly.statementMonths).toEqual([month()])
    // B's chart is B's alone: Basic's 10 % of 20.00 leaves 18.00.
    const b = await (await caller(creatorB)).earnings.monthly()
    expect(b.series.map((series) => series.months.at(-1)?.earnedMinor)).toEqual([1800])
    expect((await (await caller(creatorB)).earnings.overview()).balances).toEqual([
      { currency: 'USD', pendingMinor: 1800, availableMinor: 0, paidOutMinor: 0, owedMinor: 0 },
    ])
  })

  it('is for creators only: a customer and staff are refused every procedure', async () => {
    const customer = await createUser(db())
    for (const who of [customer, admin]) {
      const c = await caller(who)
      expect(await codeOf(c.earnings.overview())).toBe('FORBIDDEN')
      expect(await codeOf(c.earnings.entries({ page: 1 }))).toBe('FORBIDDEN')
      expect(await codeOf(c.earnings.monthly())).toBe('FORBIDDEN')
      expect(await codeOf(c.earnings.setUpPayouts())).toBe('FORBIDDEN')
      expect(await codeOf(c.earnings.dashboardLink())).toBe('FORBIDDEN')
    }
    expect(await codeOf((await caller(null)).earnings.overview())).toBe('UNAUTHORIZED')
  })

  it('setUpPayouts opens Stripe’s onboarding with the studio’s return and refresh URLs; account.updated makes it ready', async () => {
    const c = await caller(creatorA)
    expect(await codeOf(c.earnings.dashboardLink())).toBe('PRECONDITION_FAILED')
    const { url } = await c.earnings.setUpPayouts()
    const page = await fetch(url)
    expect(await page.text()).toContain('Set up payouts')
    const account = await db()
      .selectFrom('creator_payout_accounts')
      .selectAll()
      .where('creator_id', '=', creatorA.id)
      .executeTakeFirstOrThrow()
    // A second call keeps the same account.
    await c.earnings.setUpPayouts()
    expect(shop.fake.connect.accounts.size).toBe(1)
    const needs = await c.earnings.overview()
    expect(needs.payoutAccount.state).toBe('needs_info')
    if (needs.payoutAccount.state === 'needs_info') {
      expect(needs.payoutAccount.requirementsDue).toContain('external_account')
    }
    // The hosted page's button finishes onboarding and returns to the studio.
    const submitted = await fetch(url, { method: 'POST', redirect: 'manual' })
    expect(submitted.headers.get('location')).toBe('http://localhost:3000/studio/payouts?return=1')
    expect(await shop.fake.flush()).toEqual([200])
    expect((await c.earnings.overview()).payoutAccount).toMatchObject({ state: 'ready', detailsSubmitted: true })
    expect((await c.earnings.dashboardLink()).url).toContain(`/connect/express/`)
    expect(account.stripe_account_id).toMatch(/^acct_/)
    // Creator B has no account: B's dashboard link is refused, never A's.
    expect(await codeOf((await caller(creatorB)).earnings.dashboardLink())).toBe('PRECONDITION_FAILED')
  })

  it('Stripe unreachable: setting up payouts and the dashboard answer 502 saying so (not 500), and work once it is back', async () => {
    const creator = await createCreator(db(), { plan: 'pro' })
    // The real SDK against a port nothing listens on (connection refused), as when api.stripe.com cannot be reached.
    const down = createStripeApi({ secretKey: 'sk_test_down', apiUrl: `http://127.0.0.1:${await freePort()}` })
    const unreachable = await shopCaller(db(), creator, { ...shop.payments, stripe: down })
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => 'OK',
        (error: TRPCError) => `${error.code}: ${error.message}`,
      )
    expect(await failure(unreachable.earnings.setUpPayouts())).toBe(`BAD_GATEWAY: ${PAYOUTS_STRIPE_FAILED}`)
    const accountOf = () =>
      db().selectFrom('creator_payout_accounts').selectAll().where('creator_id', '=', creator.id).executeTakeFirst()
    expect(await accountOf()).toBeUndefined()

    // Stripe is back: the same click opens onboarding.
    const { url } = await (await caller(creator)).earnings.setUpPayouts()
    expect(await (await fetch(url)).text()).toContain('Set up payouts')
    // Onboarding finished on Stripe's page (account.updated delivered): the dashboard is next.
    await fetch(url, { method: 'POST', redirect: 'manual' })
    expect(await shop.fake.flush()).toEqual([200])
    expect(await failure(unreachable.earnings.dashboardLink())).toBe(`BAD_GATEWAY: ${PAYOUTS_STRIPE_FAILED}`)
    expect((await (await caller(creator)).earnings.dashboardLink()).url).toContain('/connect/express/')
  })

  it('Stripe answering 500, or accepting and never answering: setting up payouts fails in its 10 s with the same sentence, saving nothing', async () => {
    const creator = await createCreator(db(), { plan: 'pro' })
    const secretKey = 'sk_test_outage_never_shown'
    // A Stripe answering every call with a server error, and one that holds every connection open without a byte.
    const failing = createServer((_request, response) => {
      response.writeHead(500, { 'content-type': 'application/json', 'request-id': 'req_outage' })
      response.end(JSON.stringify({ error: { type: 'api_error', message: 'Internal error at 10.0.3.7' } }))
    })
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve))
    const silent = await startSilentServer()
    try {
      for (const port of [(failing.address() as AddressInfo).port, silent.port]) {
        const stripe = createStripeApi({ secretKey, apiUrl: `http://127.0.0.1:${port}` })
        const outage = await shopCaller(db(), creator, { ...shop.payments, stripe })
        const started = performance.now()
        const message = await outage.earnings.setUpPayouts().then(
          () => 'OK',
          (error: TRPCError) => `${error.code}: ${error.message}`,
        )
        expect(message).toBe(`BAD_GATEWAY: ${PAYOUTS_STRIPE_FAILED}`)
        expect(message).not.toMatch(/sk_test|10\.0\.3\.7|127\.0\.0\.1/)
        expect(performance.now() - started).toBeLessThan(15_000)
        expect(
          await db()
            .selectFrom('creator_payout_accounts')
            .select('creator_id')
            .where('creator_id', '=', creator.id)
            .executeTakeFirst(),
        ).toBeUndefined()
      }
    } finally {
      failing.closeAllConnections()
      await new Promise((resolve) => failing.close(resolve))
      await silent.close()
    }
    // Stripe answers again: the same click opens onboarding.
    const { url } = await (await caller(creator)).earnings.setUpPayouts()
    expect(await (await fetch(url)).text()).toContain('Set up payouts')
  }, 45_000)

  it('a refund after the payout leaves available negative: shown as owed', async () => {
    await releaseDueHolds(db(), new Date(Date.now() + 31 * DAY))
    const run = await runPayouts(db(), shop.payments.stripe, { month: month(), thresholdMinor: 100 })
    expect(run.paid).toBeGreaterThanOrEqual(1)
    await refundOrder(
      db(),
      {
        orderId: sale.orderId,
        lineIds: sale.lineIds,
        reference: 'BANK-1',
        actor: { id: admin.id, email: admin.email },
      },
      null,
    )
    const overview = await (await caller(creatorA)).earnings.overview()
    expect(overview.balances[0]).toEqual({
      currency: 'USD',
      pendingMinor: 0,
      availableMinor: -4749,
      paidOutMinor: 4749,
      owedMinor: 4749,
    })
    const kinds = (await (await caller(creatorA)).earnings.entries({ page: 1 })).entries.map((e) => e.kind)
    expect(kinds).toEqual(['refund', 'payout', 'hold_release', 'sale'])
    const usd = (await (await caller(creatorA)).earnings.monthly()).series[0]!.months.at(-1)
    expect(usd).toMatchObject({ earnedMinor: 4749, refundedMinor: 4749, netMinor: 0, paidOutMinor: 4749 })
  })
})

describe('statements', () => {
  it('CSV: every entry of the caller’s month; B’s statement never holds A’s entries', async () => {
    const response = await download(creatorA, `/api/studio/statements/${month()}.csv`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/csv')
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="earnings-${month()}.csv"`)
    const lines = (await response.text()).trim().split('\r\n')
    expect(lines[0]).toBe('"Date","Description","Currency","Pending","Available","Paid out"')
    expect(lines).toHaveLength(5)
    expect(lines[1]).toContain(`"Sale of ${courseTitle} (order ${sale.reference})","USD","47.49","0.00","0.00"`)
    expect(lines.some((line) => line.includes('"Payout ') && line.includes('"-47.49","47.49"'))).toBe(true)

    const other = await (await download(creatorB, `/api/studio/statements/${month()}.csv`)).text()
    expect(other).not.toContain(courseTitle)
    // B's own: the sale and its release, nothing else.
    expect(other.trim().split('\r\n')).toHaveLength(3)
    expect(other).toContain('Sale of B’s own course')
  })

  it('PDF: the month’s entries drawn with the document code', async () => {
    const response = await download(creatorA, `/api/studio/statements/${month()}.pdf`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    const text = pdfText(Buffer.from(await response.arrayBuffer()))
    expect(text).toContain(`Earnings statement ${month()}`)
    expect(text).toContain(`Sale of ${courseTitle}`)
    const other = pdfText(
      Buffer.from(await (await download(creatorB, `/api/studio/statements/${month()}.pdf`)).arrayBuffer()),
    )
    expect(other).not.toContain(courseTitle)
  })

  it('PDF of a school’s finance member: headed with the school owner, whose earnings it holds', async () => {
    const school = await (await caller(creatorA)).schools.mine()
    const member = await createUser(db(), { firstName: 'Fin', lastName: 'Member' })
    await db()
      .insertInto('school_members')
      .values({ school_id: school.school.id, user_id: member.id, role: 'finance', added_by: creatorA.id })
      .execute()
    const response = await download(member, `/api/studio/statements/${month()}.pdf?school=${school.school.id}`)
    expect(response.status).toBe(200)
    const text = pdfText(Buffer.from(await response.arrayBuffer()))
    expect(text).toContain(`Sale of ${courseTitle}`)
    expect(text).toContain(creatorA.email)
    expect(text).not.toContain(member.email)
    expect(text).not.toContain('Fin Member')
  })

  it('refuses visitors, non-creators and malformed months', async () => {
    expect((await download(null, `/api/studio/statements/${month()}.csv`)).status).toBe(401)
    expect((await download(admin, `/api/studio/statements/${month()}.csv`)).status).toBe(403)
    expect((await download(creatorA, '/api/studio/statements/2026-13.csv')).status).toBe(404)
    expect((await download(creatorA, '/api/studio/statements/2026-11.xls')).status).toBe(404)
  })
})

describe('staff finance', () => {
  it('admins see what is owed against Stripe’s balance, payouts and negative balances; editors are refused', async () => {
    const overview = await (await caller(admin)).admin.finance.overview()
    expect(overview.stripeBalance.state).toBe('available')
    // A's available is −47.49 (refunded after its payout): A owes that, which A's later earnings repay; it never
    // lowers what is owed to the others. Owed in total is each creator's pending + available where positive.
    const balances = await db()
      .selectFrom('ledger_entries')
      .select(['creator_id', 'account', (eb) => eb.fn.sum<string>('amount_minor').as('total')])
      .where('account', 'in', ['creator_pending', 'creator_available'])
      .where('currency', '=', 'USD')
      .groupBy(['creator_id', 'account'])
      .execute()
    const perCreator = new Map<string, { pending: number; available: number }>()
    for (const row of balances) {
      const entry = perCreator.get(row.creator_id!) ?? { pending: 0, available: 0 }
      entry[row.account === 'creator_pending' ? 'pending' : 'available'] += Number(row.total)
      perCreator.set(row.creator_id!, entry)
    }
    const all = [...perCreator.values()]
    expect(perCreator.get(creatorA.id)).toEqual({ pending: 0, available: -4749 })
    const b = perCreator.get(creatorB.id)!
    expect(b.pending + b.available).toBe(1800)
    expect(overview.owed.find((row) => row.currency === 'USD')).toEqual({
      currency: 'USD',
      pendingMinor: all.reduce((sum, b) => sum + b.pending, 0),
      availableMinor: all.reduce((sum, b) => sum + Math.max(b.available, 0), 0),
      owedMinor: all.reduce((sum, b) => sum + Math.max(b.pending + b.available, 0), 0),
    })
    // Without A's debt netted in: at least B's 18.00, never below zero.
    expect(overview.owed.find((row) => row.currency === 'USD')!.owedMinor).toBeGreaterThanOrEqual(1800)
    expect(overview.negativeBalances).toEqual([
      expect.objectContaining({ creatorId: creatorA.id, currency: 'USD', availableMinor: -4749 }),
    ])
    expect(overview.payouts).toEqual([
      expect.objectContaining({ creatorId: creatorA.id, amountMinor: 4749, status: 'paid', month: month() }),
    ])
    const editor = await createUser(db(), { role: 'editor' })
    expect(await codeOf((await caller(editor)).admin.finance.overview())).toBe('FORBIDDEN')
  })

  it('a Stripe outage shows the balance as unavailable, never an error', async () => {
    const overview = await (
      await shopCaller(db(), admin, {
        ...shop.payments,
        stripe: {
          ...shop.payments.stripe!,
          connect: {
            ...shop.payments.stripe!.connect,
            retrieveBalance: () => Promise.reject(new Error('Stripe is down')),
          },
        },
      })
    ).admin.finance.overview()
    expect(overview.stripeBalance).toEqual({ state: 'unavailable', reason: 'Stripe did not answer; try again later' })
  })

  it('the CSV export is for admins and up', async () => {
    const response = await download(admin, '/api/admin/finance/balances.csv')
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).toContain(`"${creatorA.email}","USD","0.00","-47.49","47.49","-47.49"`)
    expect((await download(await createUser(db(), { role: 'editor' }), '/api/admin/finance/balances.csv')).status).toBe(
      403,
    )
    expect((await download(creatorA, '/api/admin/finance/balances.csv')).status).toBe(403)
  })

  it('only the owner pauses payouts, audited; a paused run pays nothing', async () => {
    expect(await codeOf((await caller(admin)).admin.finance.setPaused({ paused: true }))).toBe('FORBIDDEN')
    const owner = await createUser(db(), { role: 'super_admin' })
    expect(await (await caller(owner)).admin.finance.setPaused({ paused: true })).toEqual({ paused: true })
    const audit = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'payouts.pause')
      .executeTakeFirstOrThrow()
    expect(audit).toMatchObject({ actor_id: owner.id, entity_type: 'payout_settings' })
    expect((await (await caller(admin)).admin.finance.overview()).paused).toBe(true)
    expect(await runPayouts(db(), shop.payments.stripe, { month: '2099-01' })).toMatchObject({ paused: true, paid: 0 })
    await (await caller(owner)).admin.finance.setPaused({ paused: false })
    expect((await (await caller(creatorA)).earnings.overview()).payoutsPaused).toBe(false)
  })
})
