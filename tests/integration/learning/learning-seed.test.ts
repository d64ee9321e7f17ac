// The demo seed gives every lesson real content: an article of a few paragraphs for each, short committed videos
// for at least three courses (small files), durations that add up, and most courses included in Premium.
import { statSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_VIDEOS } from '../../../db/seed/data/videos.ts'
import { seedDatabase } from '../../../db/seed/index.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createTestDatabase } from '../../support/db.ts'

let database: DatabaseHandle
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

describe('seeded lessons', () => {
  it('every lesson has an article of a few paragraphs', async () => {
    const lessons = await db().selectFrom('lessons').select(['title', 'body_markdown']).execute()
    expect(lessons.length).toBeGreaterThan(300)
    for (const lesson of lessons) {
      const paragraphs = lesson.body_markdown.split('\n\n').filter((block) => block.length > 80)
      expect(paragraphs.length, lesson.title).toBeGreaterThanOrEqual(3)
    }
  })

  it('at least three courses have video lessons, each playing a small committed file of its stated length', async () => {
    const videos = await db()
      .selectFrom('lessons')
      .select(['course_id', 'video_key', 'duration_seconds'])
      .where('kind', '=', 'video')
      .execute()
    expect(new Set(videos.map((v) => v.course_id)).size).toBeGreaterThanOrEqual(3)
    const byFile = new Map(DEMO_VIDEOS.map((v) => [`demo/${v.file}`, v]))
    for (const video of videos) {
      const demo = byFile.get(video.video_key ?? '')
      expect(demo, video.video_key ?? 'no key').toBeDefined()
      expect(video.duration_seconds).toBe(demo?.durationSeconds)
    }
    for (const demo of DEMO_VIDEOS) {
      expect(statSync(path.resolve('db/seed/media', demo.file)).size).toBeLessThan(400 * 1024)
    }
  })

  it("a course's duration is the sum of its lessons'", async () => {
    const rows = await db()
      .selectFrom('courses as c')
      .innerJoin('lessons as l', 'l.course_id', 'c.id')
      .select((eb) => ['c.id', 'c.duration_minutes', eb.fn.sum<string>('l.duration_seconds').as('seconds')])
      .groupBy(['c.id', 'c.duration_minutes'])
      .execute()
    for (const row of rows) expect(row.duration_minutes, row.id).toBe(Math.round(Number(row.seconds) / 60))
  })

  it('most courses are included in Premium', async () => {
    const rows = await db().selectFrom('courses').select('included_in_premium').execute()
    const included = rows.filter((row) => row.included_in_premium).length
    expect(included).toBeGreaterThan(rows.length / 2)
    expect(included).toBeLessThan(rows.length)
  })

  it('seeding again adds no sections or lessons', async () => {
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom('lessons')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const before = await count()
    await seedDatabase(db())
    expect(await count()).toBe(before)
  })
})
