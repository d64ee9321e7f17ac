// `npm run bench:studio [-- --courses 1000 --lessons 200 --runs 40 --database-url postgres://…]`
// The creator studio at the sizes issue 30 names: one creator owning 1,000 courses (the My courses list: first page,
// a search, a state filter, the last page; and the plan counts) and one course of 200 lessons in 20 sections (the
// course editor's read), through the same flows the studio procedures call. Runs on PGlite (embedded) and on
// PostgreSQL (--database-url, or TEST_DATABASE_URL) in a scratch database, and prints the median and p95 of each.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { migrateToLatest } from '../db/migrate.ts'
import { insertUser } from '../db/seed/factories.ts'
import { seedDatabase } from '../db/seed/index.ts'
import { studioCourse, studioCourses, studioStanding } from '../src-server/flows/studio-courses.ts'
import { type DatabaseHandle, openDatabase } from '../src-server/kernel/db.ts'
import { adminQuery } from '../tests/support/postgres-admin.ts'

const { values } = parseArgs({
  options: {
    courses: { type: 'string', default: '1000' },
    lessons: { type: 'string', default: '200' },
    runs: { type: 'string', default: '40' },
    'database-url': { type: 'string' },
    'skip-pglite': { type: 'boolean', default: false },
  },
})
const COURSES = Number(values.courses)
const LESSONS = Number(values.lessons)
const RUNS = Number(values.runs)
const adminUrl = values['database-url'] ?? process.env.TEST_DATABASE_URL

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

async function timed(label: string, action: () => Promise<unknown>) {
  await action() // warm: plans cached, pages read
  const times: number[] = []
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now()
    await action()
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  console.log(
    `  ${label.padEnd(44)} median ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms`,
  )
}

async function run(handle: DatabaseHandle) {
  const { db } = handle
  await migrateToLatest(db)
  await seedDatabase(db)
  const user = await insertUser(db, { email: `bench-creator-${randomBytes(3).toString('hex')}@example.test` })
  const instructor = await db
    .insertInto('instructors')
    .values({ name: 'Bench Creator', slug: `bench-creator-${randomBytes(3).toString('hex')}`, user_id: user.id })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db.insertInto('creators').values({ user_id: user.id, instructor_id: instructor.id }).execute()
  const category = await db.selectFrom('categories').select('id').executeTakeFirstOrThrow()
  // 1,000 courses in every state, owned by the creator (set-based, as the catalogue generator does).
  await sql`
    insert into courses (id, title, category_id, instructor_id, instructor_name, price_minor, owner_id, status,
                         what_you_will_learn, requirements)
    select 'bench-studio-' || g, 'Studio course ' || g, ${category.id}, ${instructor.id}, 'Bench Creator', 1999,
           ${user.id}, (array['draft','in_review','changes_requested','published','unpublished'])[1 + g % 5],
           '[]'::jsonb, '[]'::jsonb
    from generate_series(1, ${COURSES}) g`.execute(db)
  await sql`
    insert into course_instructors (course_id, user_id, role)
    select 'bench-studio-' || g, ${user.id}, 'owner' from generate_series(1, ${COURSES}) g`.execute(db)
  // One course with 200 lessons in 20 sections.
  const big = 'bench-studio-1'
  const sections = await sql<{ id: string; position: number }>`
    insert into course_sections (course_id, position, title)
    select ${big}, s, 'Section ' || s from generate_series(0, 19) s returning id, position`.execute(db)
  for (const section of sections.rows) {
    await sql`
      insert into lessons (course_id, section_id, position, title, duration_seconds, body_markdown)
      select ${big}, ${section.id}, l, 'Lesson ' || l, 300, 'Some text' from generate_series(0, ${LESSONS / 20 - 1}) l`.execute(
      db,
    )
  }
  await sql`analyze`.execute(db)

  await timed(`My courses, page 1 of ${COURSES}`, () => studioCourses(db, user.id, { search: '', page: 1 }))
  await timed('My courses, search "course 7"', () => studioCourses(db, user.id, { search: 'course 7', page: 1 }))
  await timed('My courses, state Published', () =>
    studioCourses(db, user.id, { search: '', state: 'published', page: 1 }),
  )
  await timed(`My courses, last page (${Math.ceil(COURSES / 20)})`, () =>
    studioCourses(db, user.id, { search: '', page: Math.ceil(COURSES / 20) }),
  )
  await timed('Plan counts (standing)', () => studioStanding(db, user.id))
  await timed(`Course editor, ${LESSONS} lessons in 20 sections`, () => studioCourse(db, user.id, big))
}

if (!values['skip-pglite']) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-studio-'))
  const handle = await openDatabase({ dataDir: dir })
  try {
    console.log(`\nPGlite (embedded): ${COURSES} courses, ${LESSONS} lessons, ${RUNS} runs each`)
    await run(handle)
  } finally {
    await handle.close()
    await rm(dir, { recursive: true, force: true })
  }
}
if (adminUrl) {
  const name = `bench_studio_${randomBytes(4).toString('hex')}`
  await adminQuery(adminUrl, `create database ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const handle = await openDatabase({ databaseUrl: url.toString() })
  try {
    console.log(`\nPostgreSQL: ${COURSES} courses, ${LESSONS} lessons, ${RUNS} runs each`)
    await run(handle)
  } finally {
    await handle.close()
    await adminQuery(adminUrl, `drop database if exists ${name} with (force)`)
  }
}
