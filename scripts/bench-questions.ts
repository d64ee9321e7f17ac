// `npm run bench:questions -- [questions]`: times the questions under lessons (issue 33) on an embedded
// database holding many questions in one course (default 10,000; 2,500 of them under the lesson read): the first page
// and a deep page (keyset) in each sort, and a search within the course.
import { sql } from 'kysely'
import { migrateToLatest } from '../db/migrate.ts'
import { insertUser } from '../db/seed/factories.ts'
import { seedDatabase } from '../db/seed/index.ts'
import { openPglite } from '../src-server/kernel/db.ts'
import { createCaller } from '../src-server/routers/_app.ts'
import { createContextInner } from '../src-server/trpc/context.ts'

const total = Number(process.argv[2] ?? 10_000)
const COURSE = 'modern-react-typescript'
const handle = await openPglite({})
const { db } = handle
await migrateToLatest(db)
await seedDatabase(db)
const lessons = await db.selectFrom('lessons').select('id').where('course_id', '=', COURSE).limit(4).execute()
const author = await insertUser(db, { email: 'bench-asker@example.test' })
const staff = await insertUser(db, { email: 'bench-staff@example.test', role: 'editor' })
const started = Date.now()
for (let start = 0; start < total; start += 1000) {
  await db
    .insertInto('lesson_questions')
    .values(
      Array.from({ length: Math.min(1000, total - start) }, (_, i) => {
        const n = start + i
        return {
          course_id: COURSE,
          lesson_id: lessons[n % lessons.length]?.id ?? '',
          author_id: author.id,
          title: `Question ${n} about ${n % 13 === 0 ? 'generics' : 'hooks'}`,
          body_markdown: `Some **detail** for question ${n}.`,
          upvotes: n % 37,
          answered_at: n % 3 === 0 ? new Date(started - n * 1000) : null,
          created_at: new Date(started - n * 60_000),
        }
      }),
    )
    .execute()
}
await sql`analyze`.execute(db)
const caller = createCaller(
  createContextInner({
    db,
    user: { id: staff.id, email: staff.email, role: staff.role, firstName: '', lastName: '', avatarUrl: null },
    session: { id: 'bench', expiresAt: new Date(Date.now() + 60_000) },
  }),
)

async function time(label: string, run: () => Promise<unknown>, rounds = 30) {
  await run()
  const samples: number[] = []
  for (let i = 0; i < rounds; i++) {
    const at = performance.now()
    await run()
    samples.push(performance.now() - at)
  }
  samples.sort((a, b) => a - b)
  const p50 = samples[Math.floor(rounds / 2)]?.toFixed(1)
  const p95 = samples[Math.floor(rounds * 0.95)]?.toFixed(1)
  console.log(`${label.padEnd(48)} p50 ${p50} ms  p95 ${p95} ms`)
}

/** The cursor of page `n` (walked once, outside the timing). */
async function cursorAt(sort: 'newest' | 'votes' | 'unanswered', pages: number) {
  let cursor: string | undefined
  for (let i = 0; i < pages; i++) {
    const page = await caller.questions.list({ courseId: COURSE, lessonId: lessons[0]?.id, sort, cursor })
    cursor = page.nextCursor ?? undefined
  }
  return cursor
}

console.log(`PGlite, ${total} questions in one course (${Math.ceil(total / lessons.length)} under the lesson read)`)
for (const sort of ['newest', 'votes', 'unanswered'] as const) {
  const deep = await cursorAt(sort, 60)
  const input = { courseId: COURSE, lessonId: lessons[0]?.id, sort }
  await time(`questions.list (${sort}, page 1)`, () => caller.questions.list(input))
  await time(`questions.list (${sort}, page 61, keyset)`, () => caller.questions.list({ ...input, cursor: deep }))
}
await time("questions.list (search 'generics', course)", () =>
  caller.questions.list({ courseId: COURSE, search: 'generics' }),
)
await time("questions.list (search 'question 9999', course)", () =>
  caller.questions.list({ courseId: COURSE, search: 'question 9999' }),
)
await handle.close()
