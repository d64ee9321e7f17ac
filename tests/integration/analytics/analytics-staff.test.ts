// Analytics (issue 35), the staff panels of /admin/analytics: after a scripted October (and September, the previous
// period) of subscriptions, service orders, creators' sales and payouts, the plans, services and creators figures
// are exactly what happened, per currency, with every period listed; the CSV carries them; creators cannot read them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analyticsCsv } from '../../../src-server/flows/analytics-csv.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { ownedCourse, sell } from '../../support/earnings.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { paidServiceOrder } from '../../support/service-orders.ts'
import { shopCaller } from '../../support/shop.ts'

let database: TestDatabase
let viewer: TestUser
const db = () => database.db
const at = (iso: string) => new Date(iso)

beforeAll(async () => {
  database = await createTestDatabase()
  viewer = await createUser(db(), { role: 'viewer' })
})
afterAll(() => database.close())

async function subscription(values: {
  cycle: 'monthly' | 'annual'
  amount: number
  currency: 'USD' | 'GBP'
  created: string
  trialEnds?: string
  ended?: string
  invoicePaid?: string
}) {
  const user = await createUser(db())
  const row = await db()
    .insertInto('subscriptions')
    .values({
      user_id: user.id,
      plan_id: 'pro',
      billing_cycle: values.cycle,
      status: values.ended ? 'cancelled' : 'active',
      amount_minor: values.amount,
      currency: values.currency,
      created_at: at(values.created),
      trial_ends_at: values.trialEnds ? at(values.trialEnds) : null,
      ended_at: values.ended ? at(values.ended) : null,
      end_reason: values.ended ? 'lapse' : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  if (values.invoicePaid) {
    await db()
      .insertInto('subscription_invoices')
      .values({
        subscription_id: row.id,
        user_id: user.id,
        amount_minor: values.amount,
        currency: values.currency,
        paid_at: at(values.invoicePaid),
      })
      .execute()
  }
}

async function serviceOrder(values: {
  created: string
  brief?: string
  due: string
  delivered?: string
  status?: 'in_progress' | 'delivered' | 'cancelled'
}) {
  const buyer = await createUser(db())
  const id = await paidServiceOrder(db(), buyer.id)
  await db()
    .updateTable('service_orders')
    .set({
      created_at: at(values.created),
      brief_submitted_at: values.brief ? at(values.brief) : null,
      due_at: at(values.due),
      delivered_at: values.delivered ? at(values.delivered) : null,
      status: values.status ?? (values.delivered ? 'delivered' : 'in_progress'),
    } as never) // created_at is insert-only in the types
    .where('id', '=', id)
    .execute()
}

async function creatorWithSales(firstName: string, joined: string, prices: number[], paid: string) {
  const creator = await createCreator(db(), { firstName })
  await db()
    .updateTable('creators')
    .set({ created_at: at(joined) } as never)
    .where('user_id', '=', creator.id)
    .execute()
  const sales = []
  for (const price of prices) {
    const course = await ownedCourse(db(), creator.id, price)
    const sale = await sell(db(), [course])
    await db()
      .updateTable('orders')
      .set({ paid_at: at(paid) })
      .where('id', '=', sale.orderId)
      .execute()
    sales.push(sale)
  }
  return { creator, sales }
}

async function payout(creatorId: string, amount: number, status: 'paid' | 'pending', paid: string | null) {
  await db()
    .insertInto('creator_payouts')
    .values({
      creator_id: creatorId,
      month: (paid ?? '2026-10').slice(0, 7),
      currency: 'USD',
      amount_minor: amount,
      status,
      stripe_account_id: 'acct_test',
      paid_at: paid ? at(paid) : null,
    })
    .execute()
}

const creatorMinor = async (lineIds: string[]) => {
  const rows = await db()
    .selectFrom('earning_shares')
    .select('creator_minor')
    .where('order_item_id', 'in', lineIds)
    .execute()
  return rows.reduce((sum, row) => sum + row.creator_minor, 0)
}

describe('staff analytics panels', () => {
  it('shows plans, services and creators for the range against the previous one, per currency', async () => {
    // Plans. September: a USD monthly and a GBP monthly start. October: an annual starts, the GBP one ends, a
    // trial converts (paid invoice), another trial lapses unpaid.
    await subscription({ cycle: 'monthly', amount: 2900, currency: 'USD', created: '2026-09-10T08:00:00Z' })
    await subscription({
      cycle: 'monthly',
      amount: 1900,
      currency: 'GBP',
      created: '2026-09-01T08:00:00Z',
      ended: '2026-10-20T08:00:00Z',
    })
    await subscription({ cycle: 'annual', amount: 30000, currency: 'USD', created: '2026-10-05T08:00:00Z' })
    await subscription({
      cycle: 'monthly',
      amount: 2900,
      currency: 'USD',
      created: '2026-10-01T08:00:00Z',
      trialEnds: '2026-10-15T08:00:00Z',
      invoicePaid: '2026-10-15T08:05:00Z',
    })
    await subscription({
      cycle: 'monthly',
      amount: 2900,
      currency: 'USD',
      created: '2026-10-02T08:00:00Z',
      trialEnds: '2026-10-16T08:00:00Z',
      ended: '2026-10-16T08:00:00Z',
    })

    // Services. October: 48 h and 24 h deliveries (the second after its due time), one past due undelivered, one
    // cancelled past due. September: one delivered in 12 h.
    await serviceOrder({
      created: '2026-10-02T09:00:00Z',
      brief: '2026-10-02T10:00:00Z',
      due: '2026-10-09T10:00:00Z',
      delivered: '2026-10-04T10:00:00Z',
    })
    await serviceOrder({
      created: '2026-10-03T00:00:00Z',
      brief: '2026-10-03T00:00:00Z',
      due: '2026-10-03T12:00:00Z',
      delivered: '2026-10-04T00:00:00Z',
    })
    await serviceOrder({ created: '2026-10-05T00:00:00Z', brief: '2026-10-05T00:00:00Z', due: '2026-10-10T00:00:00Z' })
    await serviceOrder({ created: '2026-10-06T00:00:00Z', due: '2026-10-12T00:00:00Z', status: 'cancelled' })
    await serviceOrder({
      created: '2026-09-20T00:00:00Z',
      brief: '2026-09-20T12:00:00Z',
      due: '2026-09-25T00:00:00Z',
      delivered: '2026-09-21T00:00:00Z',
    })

    // Creators. Ada joins in October and sells two courses (one given back in October); Bo joined in September
    // and sells one. Payouts: Ada paid in October and in September, Bo's pending.
    const ada = await creatorWithSales('Ada', '2026-10-07T00:00:00Z', [5000, 4000], '2026-10-10T12:00:00Z')
    const bo = await creatorWithSales('Bo', '2026-09-15T00:00:00Z', [3000], '2026-10-11T12:00:00Z')
    const refundedLine = ada.sales[1]?.lineIds ?? []
    await db()
      .updateTable('order_items')
      .set({ refunded_at: at('2026-10-20T00:00:00Z') })
      .where('id', 'in', refundedLine)
      .execute()
    // A creator without a plan keeps 90 %: Ada 4500 (the 3600 of the line given back is taken off again), Bo 2700.
    const adaNet = await creatorMinor(ada.sales[0]?.lineIds ?? [])
    const boNet = await creatorMinor(bo.sales[0]?.lineIds ?? [])
    expect([adaNet, boNet]).toEqual([4500, 2700])
    await payout(ada.creator.id, 7000, 'paid', '2026-10-31T10:00:00Z')
    await payout(ada.creator.id, 1000, 'paid', '2026-09-30T10:00:00Z')
    await payout(bo.creator.id, 2500, 'pending', null)

    const caller = await shopCaller(db(), viewer)
    const report = await caller.analytics.shop({ from: '2026-10-01', to: '2026-10-31', granularity: 'month' })
    const { plans, services, creators } = report.staff

    // MRR at the end of October: 2900 + 30000 / 12 + 2900 (USD), nothing in GBP; at the end of September 2900 USD
    // and 1900 GBP (the trials had not started).
    expect(plans.mrr).toEqual([
      { currency: 'GBP', mrrMinor: 0, subscriptions: 0, previousMrrMinor: 1900 },
      { currency: 'USD', mrrMinor: 8300, subscriptions: 3, previousMrrMinor: 2900 },
    ])
    expect(plans.points).toEqual([{ period: '2026-10', newSubscriptions: 3, churned: 2, trialsConverted: 1 }])
    expect(plans.previous).toEqual({ newSubscriptions: 2, churned: 0, trialsConverted: 0 })

    expect(services.points).toEqual([{ period: '2026-10', orders: 4, delivered: 2, overdue: 2, medianHours: 36 }])
    expect(services.totals).toEqual({ orders: 4, delivered: 2, overdue: 2, medianHours: 36 })
    expect(services.previous).toEqual({ orders: 1, delivered: 1, overdue: 0, medianHours: 12 })

    expect(creators.top).toEqual([
      { creatorId: ada.creator.id, name: expect.stringContaining('Ada'), currency: 'USD', netMinor: adaNet, sales: 2 },
      { creatorId: bo.creator.id, name: expect.stringContaining('Bo'), currency: 'USD', netMinor: boNet, sales: 1 },
    ])
    expect(creators.points).toEqual([{ period: '2026-10', newCreators: 1 }])
    expect(creators.previous).toEqual({ newCreators: 1 })
    expect(creators.payouts).toEqual([
      {
        currency: 'USD',
        points: [{ period: '2026-10', payouts: 1, amountMinor: 7000 }],
        totals: { payouts: 1, amountMinor: 7000 },
        previous: { payouts: 1, amountMinor: 1000 },
      },
    ])

    // By week every week of the range is listed; an empty one is zero.
    const weekly = await caller.analytics.shop({ from: '2026-10-01', to: '2026-10-31', granularity: 'week' })
    expect(weekly.staff.plans.points.map((point) => point.period)).toEqual([
      '2026-09-28',
      '2026-10-05',
      '2026-10-12',
      '2026-10-19',
      '2026-10-26',
    ])
    expect(weekly.staff.plans.points[0]).toEqual({
      period: '2026-09-28',
      newSubscriptions: 2,
      churned: 0,
      trialsConverted: 0,
    })
    expect(weekly.staff.services.points[4]).toEqual({
      period: '2026-10-26',
      orders: 0,
      delivered: 0,
      overdue: 0,
      medianHours: null,
    })
    expect(weekly.staff.creators.payouts[0]?.points.map((point) => point.amountMinor)).toEqual([0, 0, 0, 0, 7000])

    const csv = analyticsCsv(report, report.staff)
    expect(csv).toContain('"","USD","83.00","29.00","3"')
    expect(csv).toContain('"","GBP","0.00","19.00","0"')
    expect(csv).toContain('"Plans","New","Churned","Trials converted"\r\n"2026-10","3","2","1"')
    expect(csv).toContain('"2026-10","4","2","36","2"')
    expect(csv).toContain('"Ada User","USD","2","45.00"')
    expect(csv).toContain('"Payouts","Currency","Payouts","Amount"\r\n"2026-10","USD","1","70.00"')
  })

  it('is for staff only', async () => {
    const creator = await createCreator(db(), { plan: 'pro' })
    const caller = await shopCaller(db(), creator)
    await expect(
      caller.analytics.shop({ from: '2026-10-01', to: '2026-10-31', granularity: 'month' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })
})
