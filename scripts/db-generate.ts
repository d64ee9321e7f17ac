// `npm run db:generate -- --courses 1000000 [--days 365 --orders-per-day 2000 --viewed-per-day 20000
// --learning-courses 20000 --progress-per-day 15000 --learning-only] [--database-url postgres://…]`: migrates and
// seeds the database (the configured one: DATABASE_URL, else PGlite under DATA_DIR), then adds a large generated catalogue for benchmarks (db/seed/generate.ts) and, with --days, an analytics
// history over it: orders, refunds, course-page views by channel, a Pro creator of 200 of the courses
// (db/seed/generate-history.ts), and the learning in the creator's and the best-selling courses: lessons, progress,
// completions, quiz attempts, reviews (db/seed/generate-learning.ts; --progress-per-day 0 for none; --learning-only
// replaces only that, keeping the orders). A second run replaces the generated rows; --courses 0 keeps the catalogue
// and only (re)generates the history. PostgreSQL is the target for 1M; PGlite is fine up to ~100k.
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { migrateToLatest } from '../db/migrate.ts'
import { generateCatalogue } from '../db/seed/generate.ts'
import {
  DEFAULT_LEARNING_COURSES,
  DEFAULT_PROGRESS_PER_DAY,
  generateHistory,
  generateLearningHistory,
} from '../db/seed/generate-history.ts'
import { seedDatabase } from '../db/seed/index.ts'
import { makeCreator } from '../src-server/creators/profiles.ts'
import { openDatabase } from '../src-server/kernel/db.ts'
import { readEnv } from '../src-server/kernel/env.ts'

const { values } = parseArgs({
  options: {
    courses: { type: 'string', default: '100000' },
    days: { type: 'string', default: '0' },
    'orders-per-day': { type: 'string', default: '2000' },
    'viewed-per-day': { type: 'string', default: '20000' },
    'learning-courses': { type: 'string', default: String(DEFAULT_LEARNING_COURSES) },
    'progress-per-day': { type: 'string', default: String(DEFAULT_PROGRESS_PER_DAY) },
    'learning-only': { type: 'boolean', default: false },
    'database-url': { type: 'string' },
  },
})
const count = Number(values.courses)
const days = Number(values.days)
const ordersPerDay = Number(values['orders-per-day'])
const viewedPerDay = Number(values['viewed-per-day'])
const learningCourses = Number(values['learning-courses'])
const progressPerDay = Number(values['progress-per-day'])
const counts = [count, days, ordersPerDay, viewedPerDay, learningCourses, progressPerDay]
if (!counts.every((n) => Number.isInteger(n) && n >= 0) || (count === 0 && days === 0)) {
  console.error(
    'usage: npm run db:generate -- --courses N [--days D --orders-per-day K --viewed-per-day V --learning-courses C --progress-per-day P] [--database-url postgres://…]',
  )
  process.exit(2)
}

const env = readEnv()
const handle = await openDatabase({ databaseUrl: values['database-url'] ?? env.DATABASE_URL, dataDir: env.DATA_DIR })
try {
  await migrateToLatest(handle.db)
  await seedDatabase(handle.db)
  const started = performance.now()
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1)
  if (count > 0) {
    await generateCatalogue(handle.db, {
      courses: count,
      onProgress: (done) => console.log(`  ${done.toLocaleString('en-US')} courses (${seconds()} s)`),
    })
    await sql`vacuum analyze courses`.execute(handle.db)
    await sql`vacuum analyze instructors`.execute(handle.db)
    console.log(`${handle.kind}: generated ${count.toLocaleString('en-US')} courses in ${seconds()} s`)
  }
  if (days > 0) {
    const onProgress = (message: string) => console.log(`  ${message} (${seconds()} s)`)
    const learning = values['learning-only']
      ? await generateLearningHistory(handle.db, { days, learningCourses, progressPerDay, onProgress })
      : await generateHistory(handle.db, {
          days,
          ordersPerDay,
          viewedCoursesPerDay: viewedPerDay,
          learningCourses,
          progressPerDay,
          onProgress,
          makeCreator,
        })
    const tables = ['orders', 'order_items', 'course_event_counts', 'course_instructors', 'access_grants']
    tables.push('refund_requests', 'lessons', 'quizzes', 'lesson_progress', 'course_completions', 'quiz_attempts')
    for (const table of [...tables, 'course_reviews']) await sql.raw(`vacuum analyze ${table}`).execute(handle.db)
    const rows = await sql<{ n: string }>`select count(*) as n from lesson_progress`.execute(handle.db)
    console.log(
      `${handle.kind}: generated ${days} days of history (${(days * ordersPerDay).toLocaleString('en-US')} orders; ${learning.enrolments.toLocaleString('en-US')} enrolments of ${learning.learners.toLocaleString('en-US')} learners in ${learning.courses.toLocaleString('en-US')} courses, ${Number(rows.rows[0]?.n).toLocaleString('en-US')} lesson progress rows) in ${seconds()} s`,
    )
  }
} finally {
  await handle.close()
}
