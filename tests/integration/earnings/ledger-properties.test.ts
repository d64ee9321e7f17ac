// The earnings ledger under random histories (issue 31): sales (with the processor's fee at the sale, or taken later
// as Stripe reports it), partial and full refunds, lost disputes and their chargeback fees, replays of any of them,
// hold releases at random times, Premium pool months (and their replays) and payouts of whatever is available, in any
// order. After every history: the ledger sums to zero per currency; each creator's pending + available + paid out
// equals exactly the shares of the lines they still keep less the chargeback fees charged, plus their pool shares
// (nothing created or lost); nobody is paid out more than that; and replaying any fact changes nothing.
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { post } from '../../../src-server/earnings/ledger.ts'
import { poolOf, recordPoolMonth } from '../../../src-server/earnings/premium-pool.ts'
import { takeChargebackFees, takeProcessorFees } from '../../../src-server/earnings/processor-fees.ts'
import { recordSale, releaseDueHolds, reverseShares, splitLine } from '../../../src-server/earnings/shares.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'

let database: TestDatabase
const db = () => database.db
let courseId: string
const DAY = 86_400_000

beforeAll(async () => {
  database = await createTestDatabase()
  courseId = (await db().selectFrom('courses').select('id').executeTakeFirstOrThrow()).id
})
afterAll(() => database.close())

type Step =
  | { kind: 'sale'; price: number; basisPoints: number; processorFee: number; feeLater: boolean }
  | { kind: 'refund' | 'dispute' | 'replaySale' | 'replayRefund' | 'fee' | 'chargeback'; line: number }
  | { kind: 'release'; days: number }
  | { kind: 'payout' }
  | { kind: 'pool'; revenue: number; refunded: number; seconds: number; replay: boolean }

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('sale' as const),
      price: fc.integer({ min: 1, max: 50_000 }),
      basisPoints: fc.constantFrom(0, 500, 1000),
      processorFee: fc.integer({ min: 0, max: 2_000 }),
      feeLater: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom('fee' as const, 'chargeback' as const), line: fc.nat(20) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom('refund' as const, 'dispute' as const), line: fc.nat(20) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constantFrom('replaySale' as const, 'replayRefund' as const), line: fc.nat(20) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('release' as const), days: fc.integer({ min: 0, max: 45 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'payout' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('pool' as const),
      revenue: fc.integer({ min: 0, max: 500_000 }),
      refunded: fc.integer({ min: 0, max: 600_000 }),
      seconds: fc.integer({ min: 0, max: 3 }).map((n) => n * 600),
      replay: fc.boolean(),
    }),
  },
)

let run = 0
it('balances, conserves every share and pays nobody more than they keep, whatever the history', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
      run++
      const creator = await createUser(db())
      const buyer = await createUser(db())
      const start = Date.now()
      const sold: {
        itemId: string
        orderId: string
        sale: Parameters<typeof recordSale>[1]
        reversed: boolean
        disputed: boolean
        share: number
        /** What the sale credited; a fee or chargeback taken after a payout may leave available below zero. */
        credited: number
        /** The fee Stripe will report, while it is still due. */
        feeDue: number | null
        chargeback: boolean
      }[] = []
      let payouts = 0
      let chargebacks = 0
      let pooled = 0
      let poolMonths = 0
      for (const current of steps) {
        if (current.kind === 'sale') {
          const orderId = await placeOrder(db(), {
            userId: buyer.id,
            courseId,
            reference: `PROP-${run}-${sold.length}`,
            totalMinor: current.price,
            status: 'paid',
          })
          const item = await db()
            .selectFrom('order_items')
            .select('id')
            .where('order_id', '=', orderId)
            .executeTakeFirstOrThrow()
          const sale = {
            orderItemId: item.id,
            orderId,
            courseId,
            creatorId: creator.id,
            currency: 'USD' as const,
            netMinor: current.price,
            feeBasisPoints: current.basisPoints,
            ...(current.feeLater ? { processorFeeDue: true } : { processorFeeMinor: current.processorFee }),
            planId: null,
            paidAt: new Date(start),
            holdUntil: new Date(start + 30 * DAY),
          }
          await db()
            .transaction()
            .execute((trx) => recordSale(trx, sale))
          const split = splitLine(current.price, current.basisPoints, current.feeLater ? 0 : current.processorFee)
          expect(split.platformFeeMinor + split.processorFeeMinor + split.creatorMinor).toBe(current.price)
          sold.push({
            itemId: item.id,
            orderId,
            sale,
            reversed: false,
            disputed: false,
            share: split.creatorMinor,
            credited: split.creatorMinor,
            feeDue: current.feeLater ? current.processorFee : null,
            chargeback: false,
          })
        } else if (current.kind === 'fee' && sold.length) {
          // Stripe reports the fee (or reports it again): a line reversed meanwhile leaves it to the platform.
          const line = sold[current.line % sold.length]!
          const fee = line.feeDue ?? 0
          const taken = await db()
            .transaction()
            .execute((trx) => takeProcessorFees(trx, line.orderId, new Map([[line.itemId, fee]]), `test:${run}`))
          expect(taken).toBe(line.feeDue === null ? 0 : 1)
          if (line.feeDue !== null && !line.reversed) line.share -= Math.min(fee, line.share)
          line.feeDue = null
        } else if (current.kind === 'chargeback' && sold.length) {
          // A lost dispute's fee (15.00), charged once to the creator of a line the dispute took back.
          const line = sold[current.line % sold.length]!
          if (line.disputed) {
            await db()
              .transaction()
              .execute((trx) => takeChargebackFees(trx, `dp-${line.itemId}`, new Map([[line.itemId, 1500]])))
            if (!line.chargeback) chargebacks += Math.min(1500, line.share)
            line.chargeback = true
          }
        } else if ((current.kind === 'refund' || current.kind === 'dispute') && sold.length) {
          const line = sold[current.line % sold.length]!
          await db()
            .transaction()
            .execute((trx) => reverseShares(trx, [line.itemId], current.kind as 'refund', `test:${run}`))
          if (!line.reversed && current.kind === 'dispute') line.disputed = true
          line.reversed = true
        } else if (current.kind === 'replaySale' && sold.length) {
          const line = sold[current.line % sold.length]!
          expect(
            await db()
              .transaction()
              .execute((trx) => recordSale(trx, line.sale)),
          ).toBe(false)
        } else if (current.kind === 'replayRefund' && sold.length) {
          const line = sold[current.line % sold.length]!
          if (line.reversed) {
            expect(
              await db()
                .transaction()
                .execute((trx) => reverseShares(trx, [line.itemId], 'refund', 'replay')),
            ).toBe(0)
          }
        } else if (current.kind === 'pool') {
          // A month's pool, all of it this creator's course's when it was watched; a replay of the month pays nothing.
          const index = poolMonths++
          const month = {
            month: `${2100 + run * 2 + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`,
            currency: 'USD' as const,
            revenueMinor: current.revenue,
            refundedMinor: current.refunded,
            basisPoints: 3000,
            courses: [{ courseId, creatorId: creator.id, title: 'Pool course', seconds: current.seconds }],
          }
          const first = await db()
            .transaction()
            .execute((trx) => recordPoolMonth(trx, month))
          expect(first.distributedMinor).toBe(current.seconds > 0 ? poolOf(current.revenue, current.refunded, 3000) : 0)
          pooled += first.distributedMinor
          if (current.replay) {
            const again = await db()
              .transaction()
              .execute((trx) => recordPoolMonth(trx, month))
            expect(again.recorded).toBe(false)
          }
        } else if (current.kind === 'release') {
          await releaseDueHolds(db(), new Date(start + current.days * DAY))
        } else if (current.kind === 'payout') {
          const usd = (await creatorBalances(db(), creator.id)).find((b) => b.currency === 'USD')
          if (usd && usd.availableMinor > 0) {
            await db()
              .transaction()
              .execute((trx) =>
                post(trx, {
                  key: `test-payout:${creator.id}:${payouts++}`,
                  kind: 'payout',
                  source: 'test',
                  entries: [
                    {
                      account: 'creator_available',
                      creatorId: creator.id,
                      currency: 'USD',
                      amountMinor: -usd.availableMinor,
                    },
                    {
                      account: 'creator_paid_out',
                      creatorId: creator.id,
                      currency: 'USD',
                      amountMinor: usd.availableMinor,
                    },
                  ],
                }),
              )
          }
        }
      }
      for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
      const kept = sold.filter((line) => !line.reversed).reduce((sum, line) => sum + line.share, 0)
      const balance = (await creatorBalances(db(), creator.id)).find((b) => b.currency === 'USD') ?? {
        pendingMinor: 0,
        availableMinor: 0,
        paidOutMinor: 0,
      }
      expect(balance.pendingMinor + balance.availableMinor + balance.paidOutMinor).toBe(kept - chargebacks + pooled)
      // A payout pays only what is available when it runs, so nobody is paid more than they were ever credited.
      expect(balance.paidOutMinor).toBeLessThanOrEqual(sold.reduce((sum, line) => sum + line.credited, 0) + pooled)
      expect(balance.pendingMinor).toBeGreaterThanOrEqual(0)
    }),
    {
      numRuns: 25,
      examples: [
        // Found by CI: the fee reported after the hold released and the share was paid out leaves available at -1.
        [
          [
            { kind: 'sale', price: 1, basisPoints: 0, processorFee: 1, feeLater: true },
            { kind: 'release', days: 30 },
            { kind: 'payout' },
            { kind: 'fee', line: 0 },
          ],
        ],
      ],
    },
  )
}, 240_000)
