// The staff page's best sellers from the job's block lists (src-server/analytics/top.ts): a range is made of aligned
// blocks exactly, and the groups the lists keep always hold the true best sellers (checked against ranking every
// group of random sales, with lists short enough that the bound matters), or the lists say they cannot tell.
import { describe, expect, it } from 'vitest'
import { blocksHolding, blocksOf, contenders, type ListedUnits } from '../../src-server/analytics/top.ts'

const DAY = 86_400_000
const addDays = (day: string, days: number) =>
  new Date(new Date(`${day}T00:00:00Z`).getTime() + days * DAY).toISOString().slice(0, 10)

describe('blocksOf', () => {
  it('covers a range with aligned blocks, in order, without gaps or overlap', () => {
    for (const [from, length] of [
      ['2026-09-01', 90],
      ['2025-11-29', 366],
      ['2026-11-29', 1],
      ['2026-02-03', 30],
    ] as const) {
      const to = addDays(from, length - 1)
      const blocks = blocksOf(from, to)
      let next: string = from
      for (const block of blocks) {
        expect(block.firstDay).toBe(next)
        const size = 2 ** block.level
        expect(block.lastDay).toBe(addDays(block.firstDay, size - 1))
        expect((new Date(`${block.firstDay}T00:00:00Z`).getTime() / DAY) % size).toBe(0)
        next = addDays(block.lastDay, 1)
      }
      expect(next).toBe(addDays(to, 1))
      expect(blocks.length).toBeLessThanOrEqual(14)
    }
  })

  it('gives the blocks holding a day, one per level', () => {
    const blocks = blocksHolding('2026-11-29')
    expect(blocks).toHaveLength(7)
    for (const block of blocks) {
      expect(block.firstDay <= '2026-11-29' && '2026-11-29' <= block.lastDay).toBe(true)
    }
  })
})

/** A small seeded generator: the same random sales every run. */
function random(seed: number) {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

describe('contenders', () => {
  it('always keeps the true best sellers, or says the lists cannot tell', () => {
    let settled = 0
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed)
      const blockCount = 1 + Math.floor(next() * 6)
      const courses = 20 + Math.floor(next() * 80)
      const listSize = 3 + Math.floor(next() * 30)
      const count = 1 + Math.floor(next() * 10)
      // Units per block and course-currency group: a long tail (low-numbered courses sell most), some zero.
      const sales = new Map<string, number[]>()
      for (let course = 0; course < courses; course++) {
        for (const currency of ['USD', 'GBP']) {
          const units = Array.from({ length: blockCount }, () => Math.floor(next() ** 2 * (40 / (1 + course / 4))))
          if (units.some((value) => value > 0) || next() < 0.1) sales.set(`c${course}|${currency}`, units)
        }
      }
      const restMax: (number | null)[] = []
      const listed: ListedUnits[] = []
      // A group with a row in a block (a refund-only row sold none), else it has no row there.
      const present = new Set<string>()
      for (let block = 0; block < blockCount; block++) {
        const ranked = [...sales.entries()]
          .map(([key, units]) => ({ key, units: units[block]! }))
          .filter((row) => row.units > 0 || next() < 0.5)
        for (const row of ranked) present.add(row.key)
        ranked.sort((a, b) => b.units - a.units || a.key.localeCompare(b.key))
        restMax.push(ranked.length > listSize ? ranked[listSize]!.units : null)
        for (const row of ranked.slice(0, listSize)) {
          const [courseId, currency] = row.key.split('|') as [string, string]
          listed.push({ block, courseId, currency, units: row.units })
        }
      }
      const live = [...sales.keys()]
        .filter(() => next() < 0.1)
        .map((key) => {
          const [courseId, currency] = key.split('|') as [string, string]
          return { courseId, currency, units: Math.floor(next() * 5) }
        })
      const totals = new Map(
        [...sales].filter(([key]) => present.has(key)).map(([key, units]) => [key, units.reduce((a, b) => a + b, 0)]),
      )
      for (const row of live) {
        const key = `${row.courseId}|${row.currency}`
        totals.set(key, (totals.get(key) ?? 0) + row.units)
      }
      const result = contenders(restMax, listed, live, count)
      if (!result) continue
      settled++
      const kept = new Set(result.map((row) => `${row.courseId}|${row.currency}`))
      // Every group that ties or beats the count-th best is kept (whatever the tie-break among equal units).
      const best = [...totals.values()].sort((a, b) => b - a)
      const cutoff = best[Math.min(count, best.length) - 1] ?? 0
      for (const [key, units] of totals) if (units >= cutoff) expect(kept.has(key), `seed ${seed}: ${key}`).toBe(true)
    }
    expect(settled).toBeGreaterThan(50)
  })

  it('cannot tell when a group listed nowhere could reach the best', () => {
    expect(contenders([5, 5], [{ block: 0, courseId: 'a', currency: 'USD', units: 9 }], [], 1)).toBeNull()
    expect(contenders([1, 1], [{ block: 0, courseId: 'a', currency: 'USD', units: 9 }], [], 1)).toEqual([
      { courseId: 'a', currency: 'USD' },
    ])
  })
})
