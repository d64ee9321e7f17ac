// The staff page's best sellers without grouping every course sold in the range. The job keeps, for each aligned
// block of 2^level UTC days (level 0–6, blocks aligned on 1970-01-01), the block's TOP_LIST_SIZE most-sold
// course-currency groups with their units, and the most units of any group it leaves out. A range of rolled days is
// a handful of such blocks; a group listed nowhere sold at most the sum of the blocks' left-out maxima, and a listed
// one at most its listed units plus the left-out maxima of the blocks that miss it. Only the groups that can still
// reach the TOP_COURSES-th best are then summed exactly from analytics_sales_daily, so the table shows the same rows
// and figures as ranking every group; when the bound cannot settle it (or a block is missing) the caller ranks all.
import { sql } from 'kysely'
import type { DB } from '../kernel/db.ts'

export const TOP_LIST_SIZE = 200
export const TOP_MAX_LEVEL = 6
const DAY_MS = 86_400_000

const dayNumber = (day: string) => Math.round(new Date(`${day}T00:00:00.000Z`).getTime() / DAY_MS)
const dayOfNumber = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10)

export interface Block {
  level: number
  firstDay: string
  lastDay: string
}

const blockAt = (level: number, first: number): Block => ({
  level,
  firstDay: dayOfNumber(first),
  lastDay: dayOfNumber(first + 2 ** level - 1),
})

/** The fewest aligned blocks that make up [from, to] (at most two of each level). */
export function blocksOf(from: string, to: string): Block[] {
  const blocks: Block[] = []
  const end = dayNumber(to)
  for (let start = dayNumber(from); start <= end; ) {
    let level = TOP_MAX_LEVEL
    while (level > 0 && (start % 2 ** level !== 0 || start + 2 ** level - 1 > end)) level--
    blocks.push(blockAt(level, start))
    start += 2 ** level
  }
  return blocks
}

/** The blocks holding the day, one per level. */
export function blocksHolding(day: string): Block[] {
  const n = dayNumber(day)
  const blocks: Block[] = []
  for (let level = 0; level <= TOP_MAX_LEVEL; level++) blocks.push(blockAt(level, n - (n % 2 ** level)))
  return blocks
}

const keyOf = (courseId: string, currency: string) => `${courseId}|${currency}`

/** Replaces a block's list with what analytics_sales_daily says now (rerun = same rows). */
export async function rollupTopBlock(trx: DB, block: Block): Promise<void> {
  const { rows } = await sql<{ course_id: string; currency: string; units: string }>`
    select course_id, currency, sum(units) as units from analytics_sales_daily
    where day >= ${block.firstDay} and day <= ${block.lastDay}
    group by course_id, currency order by sum(units) desc, course_id, currency
    limit ${TOP_LIST_SIZE + 1}`.execute(trx)
  const listed = rows.slice(0, TOP_LIST_SIZE)
  const rest = rows[TOP_LIST_SIZE]
  const where = { level: block.level, first_day: block.firstDay }
  await trx
    .deleteFrom('analytics_sales_top')
    .where('level', '=', where.level)
    .where('first_day', '=', where.first_day)
    .execute()
  await trx
    .insertInto('analytics_sales_top_blocks')
    .values({ ...where, rest_max_units: rest ? Number(rest.units) : null })
    .onConflict((oc) =>
      oc.columns(['level', 'first_day']).doUpdateSet({ rest_max_units: rest ? Number(rest.units) : null }),
    )
    .execute()
  if (listed.length > 0) {
    await trx
      .insertInto('analytics_sales_top')
      .values(
        listed.map((row) => ({ ...where, course_id: row.course_id, currency: row.currency, units: Number(row.units) })),
      )
      .execute()
  }
}

export interface ListedUnits {
  block: number
  courseId: string
  currency: string
  units: number
}

/**
 * Which course-currency groups can be among the `count` best sellers, from the blocks' lists (restMax: a block's
 * left-out maximum, null when it lists every group) and the units of the days read live (every group of those days).
 * Null when the lists cannot settle it: a group listed nowhere could reach the count-th best.
 */
export function contenders(
  restMax: (number | null)[],
  listed: ListedUnits[],
  live: { courseId: string; currency: string; units: number }[],
  count: number,
): { courseId: string; currency: string }[] | null {
  const groups = new Map<string, { courseId: string; currency: string; known: number; blocks: Set<number> }>()
  const group = (courseId: string, currency: string) => {
    const key = keyOf(courseId, currency)
    const found = groups.get(key) ?? { courseId, currency, known: 0, blocks: new Set<number>() }
    groups.set(key, found)
    return found
  }
  for (const row of listed) {
    const found = group(row.courseId, row.currency)
    found.known += row.units
    found.blocks.add(row.block)
  }
  for (const row of live) group(row.courseId, row.currency).known += row.units
  const complete = restMax.every((max) => max === null)
  const unlisted = restMax.reduce<number>((sum, max) => sum + (max ?? 0), 0)
  const known = [...groups.values()].map((found) => found.known).sort((a, b) => b - a)
  // At least `count` groups sold `threshold` or more: a group that cannot reach it is not among the best.
  const threshold = known.length >= count ? known[count - 1]! : -1
  if (!complete && !(unlisted < threshold)) return null
  const result: { courseId: string; currency: string }[] = []
  for (const found of groups.values()) {
    let most = found.known
    restMax.forEach((max, block) => {
      if (max !== null && !found.blocks.has(block)) most += max
    })
    if (most >= threshold) result.push({ courseId: found.courseId, currency: found.currency })
  }
  return result
}

/**
 * The blocks' lists of [from, to] (every day rolled), or null when a block has not been listed yet (a block before the
 * first rolled day is empty).
 */
export async function readTopBlocks(
  db: DB,
  from: string,
  to: string,
): Promise<{ restMax: (number | null)[]; listed: ListedUnits[] } | null> {
  const blocks = blocksOf(from, to)
  const pairs = sql.join(blocks.map((block) => sql`(${block.level}::smallint, ${block.firstDay}::date)`))
  const [first, stored, listed] = await Promise.all([
    sql<{ day: string | null }>`select min(day)::text as day from analytics_sales_daily`.execute(db),
    sql<{ level: number; first_day: string; rest_max_units: number | null }>`
      select level, first_day::text as first_day, rest_max_units from analytics_sales_top_blocks
      where (level, first_day) in (${pairs})`.execute(db),
    sql<{ level: number; first_day: string; course_id: string; currency: string; units: number }>`
      select level, first_day::text as first_day, course_id, currency, units from analytics_sales_top
      where (level, first_day) in (${pairs})`.execute(db),
  ])
  const index = new Map(blocks.map((block, at) => [`${block.level}|${block.firstDay}`, at]))
  const restMax: (number | null | undefined)[] = blocks.map(() => undefined)
  for (const row of stored.rows) restMax[index.get(`${row.level}|${row.first_day}`)!] = row.rest_max_units
  // A block before the first rolled day has no rows: nothing left out.
  const firstDay = first.rows[0]?.day
  blocks.forEach((block, at) => {
    if (restMax[at] === undefined && (!firstDay || block.lastDay < firstDay)) restMax[at] = null
  })
  if (restMax.some((max) => max === undefined)) return null
  return {
    restMax: restMax as (number | null)[],
    listed: listed.rows.map((row) => ({
      block: index.get(`${row.level}|${row.first_day}`)!,
      courseId: row.course_id,
      currency: row.currency,
      units: Number(row.units),
    })),
  }
}

/**
 * Lists the blocks of rolled days [first, last] that are not listed yet (days rolled before these lists existed).
 * Returns how many it listed.
 */
export async function fillTopBlocks(db: DB, first: string, last: string): Promise<number> {
  const stored = await db
    .selectFrom('analytics_sales_top_blocks')
    .select(['level', sql<string>`first_day::text`.as('first_day')])
    .execute()
  const have = new Set(stored.map((row) => `${row.level}|${row.first_day}`))
  let filled = 0
  for (let level = 0; level <= TOP_MAX_LEVEL; level++) {
    const size = 2 ** level
    const start = dayNumber(first) - (dayNumber(first) % size)
    for (let at = start; at + size - 1 <= dayNumber(last); at += size) {
      const block = blockAt(level, at)
      if (have.has(`${level}|${block.firstDay}`)) continue
      await db.transaction().execute((trx) => rollupTopBlock(trx, block))
      filled++
    }
  }
  return filled
}
