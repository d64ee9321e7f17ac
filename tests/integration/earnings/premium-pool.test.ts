// The Premium pool (issue 31, revenue share 3): each month PREMIUM_POOL_BASIS_POINTS of Premium's revenue net of
// refunds, per currency, is split among included creator-owned courses by the seconds Premium members watched them
// (largest remainder: no cent lost), credited to the creators as available once per month, currency and course.
// Only Premium watching counts (a buyer's does not), a course not in Premium earns nothing, a month nobody watched
// leaves the pool with the platform, and the monthly job run twice pays once.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertCourse } from '../../../db/seed/factories.ts'
import { writeCurriculum } from '../../../src-server/catalog/curriculum-editing.ts'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { poolMonths, poolOf, splitPool } from '../../../src-server/earnings/premium-pool.ts'
import { monthBounds } from '../../../src-server/earnings/statements.ts'
import {
  PREMIUM_POOL_CATCH_UP_MONTHS,
  poolMonthOf,
  runDuePremiumPools,
  runPremiumPool,
  unsettledPoolMonths,
} from '../../../src-server/flows/premium-pool.ts'
import { refundOrder } from '../../../src-server/flows/refunds.ts'
import { handlers, type JobDeps } from '../../../src-server/jobs/registry.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import { watchMonthOf } from '../../../src-server/learning/watch-time.ts'
import { premiumRevenueOfMonth } from '../../../src-server/orders/premium-revenue.ts'
import { allocate } from '../../../src-shared/money.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse, lessonsOf, premiumMember } from '../../support/learning.ts'

let database: TestDatabase
let admin: TestUser
let planPrice: number
let categoryId: string
const db = () => database.db
const BASIS_POINTS = 3000

beforeAll(async () => {
  database = await createTestDatabase()
  admin = await createUser(db(), { role: 'admin' })
  const plan = await db()
    .selectFrom('plans')
    .select('monthly_price_minor')
    .where('id', '=', 'pro')
    .executeTakeFirstOrThrow()
  planPrice = plan.monthly_price_minor
  const category = await db().selectFrom('categories').select('id').limit(1).executeTakeFirstOrThrow()
  categoryId = category.id
})
afterAll(async () => {
  clock.resetClock()
  await database.close()
})

/** Moves the business clock to the 2nd of the next month (UTC): each scenario has a month of its own. */
async function toNextMonth() {
  const now = clock.now()
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2)
  await clock.advanceClock((next - now.getTime()) / 1000)
  return watchMonthOf(clock.now())
}

let courseCount = 0
/** A published course the creator owns with two 10-minute video lessons, in Premium or not. */
async function creatorCourse(ownerId: string, includedInPremium: boolean) {
  const id = `pool-course-${++courseCount}`
  await insertCourse(db(), { id, title: `Pool course ${courseCount}`, category_id: categoryId, status: 'published' })
  await writeCurriculum(db(), id, [
    {
      title: 'Only section',
      lessons: [
        { title: 'One', durationSeconds: 600, isPreview: false, kind: 'video', videoKey: 'demo/recap.webm' },
        { title: 'Two', durationSeconds: 600, isPreview: false, kind: 'video', videoKey: 'demo/recap.webm' },
      ],
    },
  ])
  await db()
    .updateTable('courses')
    .set({ owner_id: ownerId, included_in_premium: includedInPremium })
    .where('id', '=', id)
    .execute()
  const lessons = await lessonsOf(db(), id)
  return { id, lessonIds: lessons.map((lesson) => lesson.id) }
}

/**
 * The learner watches the first `seconds` of a lesson (one save; the first save believes up to 35 s), as long on the
 * server's clock: a member's credited Premium watch time never runs ahead of it (decision 0115).
 */
async function watch(user: TestUser, courseId: string, lessonId: string, seconds: number) {
  const caller = await callerAs(db(), user)
  await db()
    .insertInto('premium_watch_clocks')
    .values({ user_id: user.id, credited_until: clock.now() })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute()
  await clock.advanceClock(seconds)
  return caller.learning.saveProgress({
    courseId,
    lessonId,
    positionSeconds: seconds,
    ranges: [[0, seconds]],
    sentAt: clock.nowMs(),
  })
}

const available = async (creatorId: string) =>
  (await creatorBalances(db(), creatorId)).find((balance) => balance.currency === 'USD')?.availableMinor ?? 0

const poolPostings = (month: string) =>
  db()
    .selectFrom('ledger_transactions')
    .select(['key', 'memo'])
    .where('key', 'like', `pool:${month}:%`)
    .orderBy('key')
    .execute()

describe('the Premium pool', () => {
  it('splits revenue net of refunds by minutes Premium members watched, no cent lost; only Premium watching of included courses counts', async () => {
    const month = await toNextMonth()
    const [alice, bob] = [await createCreator(db()), await createCreator(db())]
    const a1 = await creatorCourse(alice.id, true)
    const a2 = await creatorCourse(alice.id, true)
    const b1 = await creatorCourse(bob.id, true)
    const outside = await creatorCourse(bob.id, false)

    const m1 = (await premiumMember(db())).user
    const m2 = (await premiumMember(db())).user
    const refunded = await premiumMember(db())
    // The third member's plan is refunded in the month: its revenue is given back and its Premium ends.
    await refundOrder(
      db(),
      { orderId: refunded.orderId, reference: 'BANK-1', actor: { id: admin.id, email: admin.email } },
      null,
    )

    await watch(m1, a1.id, a1.lessonIds[0]!, 30)
    await watch(m2, a1.id, a1.lessonIds[1]!, 20)
    await watch(m1, a2.id, a2.lessonIds[0]!, 10)
    await watch(m2, b1.id, b1.lessonIds[0]!, 30)
    // Watching the same seconds again is no new watching.
    await watch(m1, a1.id, a1.lessonIds[0]!, 30)
    // A buyer's watching is not Premium's: neither a non-member's, nor a member's of a course they bought.
    const buyer = (await buyerOfCourse(db(), a1.id)).user
    await watch(buyer, a1.id, a1.lessonIds[0]!, 30)
    await buyerOfCourse(db(), outside.id, m1)
    await watch(m1, outside.id, outside.lessonIds[0]!, 30)
    // The refunded member no longer opens the course.
    await expect(watch(refunded.user, b1.id, b1.lessonIds[0]!, 30)).rejects.toThrow(/access/)

    const watched = await db()
      .selectFrom('premium_watch_time')
      .select(['course_id', 'seconds'])
      .where('month', '=', month)
      .orderBy('course_id')
      .execute()
    expect(watched.map((row) => [row.course_id, row.seconds])).toEqual(
      [
        [a1.id, 30],
        [a1.id, 20],
        [a2.id, 10],
        [b1.id, 30],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    )

    const outcomes = await runPremiumPool(db(), { month, basisPoints: BASIS_POINTS })
    const usd = outcomes.find((outcome) => outcome.currency === 'USD')!
    // Three plans paid, one refunded: the pool is 30 % of two plans' price, rounded down.
    const pool = Math.floor((2 * planPrice * BASIS_POINTS) / 10_000)
    expect(usd).toMatchObject({ poolMinor: pool, distributedMinor: pool, recorded: true })
    const [shareA1, shareA2, shareB1] = allocate(pool, [50, 10, 30]) as [number, number, number]
    expect(shareA1 + shareA2 + shareB1).toBe(pool)
    const byCourse = Object.fromEntries(usd.shares.map((share) => [share.courseId, share.shareMinor]))
    expect(byCourse).toEqual({ [a1.id]: shareA1, [a2.id]: shareA2, [b1.id]: shareB1 })
    expect(await poolMonths(db(), month)).toEqual([
      {
        currency: 'USD',
        revenueMinor: 3 * planPrice,
        refundedMinor: planPrice,
        basisPoints: BASIS_POINTS,
        poolMinor: pool,
        distributedMinor: pool,
      },
    ])

    // Credited as available (nothing reverses a pool share; refunds lower a later month's pool instead).
    expect(await available(alice.id)).toBe(shareA1 + shareA2)
    expect(await available(bob.id)).toBe(shareB1)
    // The course outside Premium got nothing; each posting names the month, course and minutes.
    const postings = await poolPostings(month)
    expect(postings.map((posting) => posting.key).sort()).toEqual(
      [a1.id, a2.id, b1.id].map((id) => `pool:${month}:USD:${id}`).sort(),
    )
    expect(postings.some((posting) => posting.key.includes(outside.id))).toBe(false)
    expect(postings.find((p) => p.key.endsWith(a1.id))?.memo).toBe(
      `Premium pool ${month}: Pool course ${a1.id.split('-').pop()} (1 min watched)`,
    )
    for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)

    // Running the month again pays nothing more.
    const again = await runPremiumPool(db(), { month, basisPoints: BASIS_POINTS })
    expect(again.every((outcome) => !outcome.recorded)).toBe(true)
    expect(await available(alice.id)).toBe(shareA1 + shareA2)
    expect(await available(bob.id)).toBe(shareB1)
  })

  it('runs as the monthly job for the month that ended: twice pays once', async () => {
    const month = await toNextMonth()
    const creator = await createCreator(db())
    const course = await creatorCourse(creator.id, true)
    const member = (await premiumMember(db())).user
    await watch(member, course.id, course.lessonIds[0]!, 30)

    // The 1st of the next month, 05:00 UTC: the job computes `month`.
    const now = clock.now()
    await clock.advanceClock((Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 5) - now.getTime()) / 1000)
    expect(poolMonthOf(clock.now())).toBe(month)
    const log = { info: () => {}, warn: () => {}, error: () => {} }
    const work = handlers({ db: db(), log, premiumPool: { basisPoints: BASIS_POINTS } } as unknown as JobDeps)
    await work['earnings.premium-pool']({ id: 'a', name: 'earnings.premium-pool', data: {} } as never)
    await work['earnings.premium-pool']({ id: 'b', name: 'earnings.premium-pool', data: {} } as never)

    const pool = Math.floor((planPrice * BASIS_POINTS) / 10_000)
    expect(await available(creator.id)).toBe(pool)
    expect(await poolPostings(month)).toHaveLength(1)
  })

  it('catches up the months missed runs left: one run settles each closed month, oldest first; a rerun changes nothing', async () => {
    const first = await toNextMonth()
    const creator = await createCreator(db())
    const course = await creatorCourse(creator.id, true)
    const early = (await premiumMember(db())).user
    await watch(early, course.id, course.lessonIds[0]!, 30)
    // No run on the 1st that closed `first` (the server was down), nor on the next one.
    const second = await toNextMonth()
    const [m1, m2] = [(await premiumMember(db())).user, (await premiumMember(db())).user]
    await watch(m1, course.id, course.lessonIds[0]!, 20)
    await watch(m2, course.id, course.lessonIds[1]!, 20)
    const now = clock.now()
    await clock.advanceClock((Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 5) - now.getTime()) / 1000)
    const third = watchMonthOf(clock.now())
    // Money of the month still open: not this run's.
    await premiumMember(db())
    expect(await poolMonths(db(), first)).toEqual([])
    expect(await unsettledPoolMonths(db(), clock.now())).toEqual(expect.arrayContaining([first, second]))

    const logged: { months?: string[] }[] = []
    const log = { info: (entry: { months?: string[] }) => logged.push(entry), warn: () => {}, error: () => {} }
    const work = handlers({ db: db(), log, premiumPool: { basisPoints: BASIS_POINTS } } as unknown as JobDeps)
    await work['earnings.premium-pool']({ id: 'late', name: 'earnings.premium-pool', data: {} } as never)

    const [pool1, pool2] = [1, 2].map((plans) => Math.floor((plans * planPrice * BASIS_POINTS) / 10_000)) as [
      number,
      number,
    ]
    const month = (plans: number, pool: number) => ({
      currency: 'USD',
      revenueMinor: plans * planPrice,
      refundedMinor: 0,
      basisPoints: BASIS_POINTS,
      poolMinor: pool,
      distributedMinor: pool,
    })
    expect(await poolMonths(db(), first)).toEqual([month(1, pool1)])
    expect(await poolMonths(db(), second)).toEqual([month(2, pool2)])
    expect(await poolMonths(db(), third)).toEqual([])
    expect(await available(creator.id)).toBe(pool1 + pool2)
    expect((await poolPostings(first)).map((posting) => posting.key)).toEqual([`pool:${first}:USD:${course.id}`])
    expect((await poolPostings(second)).map((posting) => posting.key)).toEqual([`pool:${second}:USD:${course.id}`])
    // Oldest first, each closed month once.
    const ran = logged.flatMap((entry) => entry.months ?? [])
    expect(ran.indexOf(first)).toBeLessThan(ran.indexOf(second))
    expect(ran.filter((m) => m === first || m === second)).toEqual([first, second])

    // Run again (a retry, the next 1st): nothing more is recorded or paid.
    const again = await runDuePremiumPools(db(), { now: clock.now(), basisPoints: BASIS_POINTS })
    expect(again.outcomes.filter((outcome) => outcome.recorded)).toEqual([])
    expect(await available(creator.id)).toBe(pool1 + pool2)
    expect(await poolPostings(first)).toHaveLength(1)
    expect(await poolPostings(second)).toHaveLength(1)
    for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
  })

  it('looks back at most PREMIUM_POOL_CATCH_UP_MONTHS closed months, never at the month still open', async () => {
    const now = new Date(Date.UTC(clock.now().getUTCFullYear() + 5, 0, 15))
    const months = await unsettledPoolMonths(db(), now)
    expect(months.length).toBeLessThanOrEqual(PREMIUM_POOL_CATCH_UP_MONTHS)
    expect(months).not.toContain(watchMonthOf(now))
    expect(months.at(-1)).toBe(poolMonthOf(now))
  })

  it('pays once when two workers run the same month at once (PostgreSQL: real concurrency)', async () => {
    const month = await toNextMonth()
    const creator = await createCreator(db())
    const course = await creatorCourse(creator.id, true)
    const member = (await premiumMember(db())).user
    await watch(member, course.id, course.lessonIds[0]!, 30)
    // The month row is the claim: the second transaction waits on its key, then finds it and records nothing.
    // Without it the second run's share rows would hit their key (an error) and its postings the ledger's keys.
    const runs = await Promise.all(
      Array.from({ length: 3 }, () => runPremiumPool(db(), { month, basisPoints: BASIS_POINTS })),
    )
    expect(runs.flat().filter((outcome) => outcome.recorded)).toHaveLength(1)
    expect(await available(creator.id)).toBe(Math.floor((planPrice * BASIS_POINTS) / 10_000))
    expect(await poolPostings(month)).toHaveLength(1)
  })

  it('keeps a pool nobody earned with the platform: no minutes watched, nothing credited', async () => {
    const month = await toNextMonth()
    await premiumMember(db())
    const [usd] = await runPremiumPool(db(), { month, basisPoints: BASIS_POINTS })
    expect(usd).toMatchObject({ currency: 'USD', distributedMinor: 0, shares: [], recorded: true })
    expect(usd?.poolMinor).toBe(Math.floor((planPrice * BASIS_POINTS) / 10_000))
    expect(await poolPostings(month)).toEqual([])
    expect(await poolMonths(db(), month)).toMatchObject([{ distributedMinor: 0 }])
  })

  it('gives an erased creator’s minutes no share: the course is the house’s, the others split the pool', async () => {
    const month = await toNextMonth()
    const [leaver, stayer] = [await createCreator(db()), await createCreator(db())]
    const [left, kept] = [await creatorCourse(leaver.id, true), await creatorCourse(stayer.id, true)]
    const { user: member } = await premiumMember(db())
    await watch(member, left.id, left.lessonIds[0]!, 30)
    await watch(member, kept.id, kept.lessonIds[0]!, 30)
    // The leaver's account is erased before the month is computed.
    await db()
      .insertInto('account_deletions')
      .values({ user_id: leaver.id, requested_at: clock.now(), erase_after: clock.now(), erased_at: clock.now() })
      .execute()
    const [usd] = await runPremiumPool(db(), { month, basisPoints: BASIS_POINTS })
    expect(usd?.shares.map((share) => share.courseId)).toEqual([kept.id])
    expect(usd?.distributedMinor).toBe(usd?.poolMinor)
    expect(await available(leaver.id)).toBe(0)
  })
})

describe('Premium revenue of a month', () => {
  it('counts Stripe renewal invoices once (the first is the checkout order) and leaves other months out', async () => {
    const month = await toNextMonth()
    const { user } = await premiumMember(db())
    const sub = await db()
      .selectFrom('subscriptions')
      .select('id')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    const invoice = (id: string, billingReason: string, amountMinor: number, paidAt: Date) => ({
      subscription_id: sub.id,
      user_id: user.id,
      stripe_invoice_id: id,
      amount_minor: amountMinor,
      currency: 'usd',
      billing_reason: billingReason,
      paid_at: paidAt,
    })
    const { start, end } = monthBounds(month)
    await db()
      .insertInto('subscription_invoices')
      .values([
        invoice(`in_create_${month}`, 'subscription_create', planPrice, clock.now()),
        invoice(`in_cycle_${month}`, 'subscription_cycle', 1234, clock.now()),
        invoice(`in_next_${month}`, 'subscription_cycle', 999, end),
      ])
      .execute()
    expect(await premiumRevenueOfMonth(db(), start, end)).toEqual([
      { currency: 'USD', revenueMinor: planPrice + 1234, refundedMinor: 0 },
    ])
  })

  it('names the month that ended on the 1st, across a year', () => {
    expect(poolMonthOf(new Date('2027-01-01T05:00:00Z'))).toBe('2026-12')
    expect(poolMonthOf(new Date('2026-03-31T23:59:59Z'))).toBe('2026-02')
  })
})

describe('the pool arithmetic', () => {
  it('never pools more than the net, nor less than zero', () => {
    expect(poolOf(10_000, 0, 3000)).toBe(3000)
    expect(poolOf(999, 0, 3000)).toBe(299)
    expect(poolOf(5_000, 6_000, 3000)).toBe(0)
    expect(poolOf(5_000, 5_000, 10_000)).toBe(0)
  })

  it('splits every cent of the pool by seconds, and nothing when nobody watched', () => {
    const course = (seconds: number, index: number) => ({
      courseId: `c${index}`,
      creatorId: `u${index % 3}`,
      title: `Course ${index}`,
      seconds,
    })
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0.5, max: 1e6, noNaN: true })), { maxLength: 30 }),
        (pool, seconds) => {
          const shares = splitPool(pool, seconds.map(course))
          const watched = seconds.filter((s) => s > 0)
          if (watched.length === 0) {
            expect(shares).toEqual([])
            return
          }
          expect(shares.reduce((sum, share) => sum + share.shareMinor, 0)).toBe(pool)
          expect(shares.every((share) => share.shareMinor >= 0 && Number.isInteger(share.shareMinor))).toBe(true)
          // More seconds never earn less (largest remainder keeps the order, up to one cent).
          for (const a of shares) {
            for (const b of shares)
              if (a.seconds > b.seconds) expect(a.shareMinor).toBeGreaterThanOrEqual(b.shareMinor - 1)
          }
        },
      ),
    )
  })
})

describe('the Premium pool month, end to end', () => {
  // Random months: Premium members play random lessons of random included courses (several at once, as several tabs
  // do, with random time on the server's clock between saves and random claims of new watching), then the month's
  // pool is split. Each member's credited watch time never runs ahead of the server's clock (decision 0115); the
  // month distributes exactly the pool (no cent lost or made up) when anyone watched, each course's share is split
  // among its instructors exactly, and the creators are credited exactly those parts.
  const save = fc.record({
    member: fc.nat(2),
    course: fc.nat(2),
    lesson: fc.nat(1),
    advance: fc.integer({ min: 0, max: 40 }),
    claim: fc.integer({ min: 1, max: 120 }),
  })
  it('credits no member more watch time than elapsed, and distributes exactly the pool', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ members: fc.integer({ min: 1, max: 3 }), saves: fc.array(save, { minLength: 1, maxLength: 16 }) }),
        async (run) => {
          const month = await toNextMonth()
          const creators = [await createCreator(db()), await createCreator(db())]
          const courses = [
            await creatorCourse(creators[0]!.id, true),
            await creatorCourse(creators[1]!.id, true),
            await creatorCourse(creators[1]!.id, true),
          ]
          const members: TestUser[] = []
          for (let i = 0; i < run.members; i += 1) members.push((await premiumMember(db())).user)
          const watchedTo = new Map<string, number>()
          const firstSave = new Map<string, number>()
          for (const step of run.saves) {
            const member = members[step.member % members.length]!
            const course = courses[step.course]!
            const lessonId = course.lessonIds[step.lesson]!
            await clock.advanceClock(step.advance)
            const key = `${member.id}:${lessonId}`
            const from = watchedTo.get(key) ?? 0
            const to = Math.min(600, from + step.claim)
            if (to <= from) continue
            if (!firstSave.has(member.id)) firstSave.set(member.id, clock.nowMs())
            const caller = await callerAs(db(), member)
            const saved = await caller.learning.saveProgress({
              courseId: course.id,
              lessonId,
              positionSeconds: to,
              ranges: [[from, to]],
              sentAt: clock.nowMs(),
            })
            watchedTo.set(key, Math.max(from, saved.watchedSeconds))
          }
          for (const member of members) {
            const { seconds } = await db()
              .selectFrom('premium_watch_time')
              .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('seconds'), eb.lit(0)).as('seconds'))
              .where('user_id', '=', member.id)
              .executeTakeFirstOrThrow()
            const started = firstSave.get(member.id)
            const elapsed = started === undefined ? 0 : (clock.nowMs() - started) / 1000 + 15
            expect(Number(seconds)).toBeLessThanOrEqual(elapsed + 1e-6)
          }

          const before = await Promise.all(creators.map((creator) => available(creator.id)))
          const outcomes = await runPremiumPool(db(), { month, basisPoints: BASIS_POINTS })
          const usd = outcomes.find((outcome) => outcome.currency === 'USD')!
          const watched = await db()
            .selectFrom('premium_watch_time')
            .select('seconds')
            .where('month', '=', month)
            .where('seconds', '>', 0)
            .execute()
          // The pool is the month's Premium revenue net of refunds (these members' plans, and any other test's).
          const { start, end } = monthBounds(month)
          const revenue = (await premiumRevenueOfMonth(db(), start, end)).find((row) => row.currency === 'USD')!
          expect(revenue.revenueMinor).toBeGreaterThanOrEqual(run.members * planPrice)
          expect(usd.poolMinor).toBe(poolOf(revenue.revenueMinor, revenue.refundedMinor, BASIS_POINTS))
          expect(usd.distributedMinor).toBe(watched.length ? usd.poolMinor : 0)
          expect(usd.shares.reduce((sum, share) => sum + share.shareMinor, 0)).toBe(usd.distributedMinor)
          const parts = await db()
            .selectFrom('premium_pool_share_parts')
            .select(['course_id', 'creator_id', 'share_minor'])
            .where('month', '=', month)
            .execute()
          for (const share of usd.shares) {
            expect(
              parts
                .filter((part) => part.course_id === share.courseId)
                .reduce((sum, part) => sum + part.share_minor, 0),
            ).toBe(share.shareMinor)
          }
          const after = await Promise.all(creators.map((creator) => available(creator.id)))
          creators.forEach((creator, index) => {
            const credited = parts
              .filter((part) => part.creator_id === creator.id)
              .reduce((sum, part) => sum + part.share_minor, 0)
            expect(after[index]! - before[index]!).toBe(credited)
          })
          for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
        },
      ),
      { numRuns: Number(process.env.POOL_PROPERTY_RUNS ?? 12), endOnFailure: true },
    )
  }, 600_000)
})
