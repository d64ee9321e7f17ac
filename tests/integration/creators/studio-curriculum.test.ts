// The curriculum builder against a real database: sections and lessons added, renamed, arranged, moved and deleted;
// the bounds (100 sections, 200 lessons) refused whole; lesson content as text, a YouTube link or a claimed upload
// whose bytes go back on replacement or deletion; lessons added to a course on sale hidden from learners until
// approved; editors previewing their draft; another creator's sections, lessons and uploads not found.
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storageUsedBytes } from '../../../src-server/creators/limits.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { STUDIO_LIMITS, STUDIO_MESSAGES } from '../../../src-shared/studio.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse } from '../../support/learning.ts'
import { developmentCategory, makeCreator, storedUpload } from '../../support/studio.ts'

let database: DatabaseHandle
const db = () => database.db
let categoryId: string

beforeAll(async () => {
  database = await createTestDatabase()
  categoryId = await developmentCategory(db())
})
afterAll(async () => {
  await database.close()
})

async function failure(promise: Promise<unknown>) {
  try {
    await promise
    return 'OK'
  } catch (error) {
    return error instanceof TRPCError ? `${error.code}: ${error.message}` : String(error)
  }
}

/** A creator's course with one section of two text lessons. */
async function courseWithLessons(creator?: TestUser) {
  const owner = creator ?? (await makeCreator(db()))
  const caller = await callerAs(db(), owner)
  const { id: courseId } = await caller.studio.createCourse({ title: 'Curriculum course', categoryId })
  const { curriculum } = await caller.studio.addSection({ courseId, title: 'Basics' })
  const sectionId = curriculum[0]?.id as string
  await caller.studio.addLesson({ courseId, sectionId, title: 'One' })
  const after = await caller.studio.addLesson({ courseId, sectionId, title: 'Two' })
  const [one, two] = after.curriculum[0]?.lessons ?? []
  return { owner, caller, courseId, sectionId, one: one?.id as string, two: two?.id as string }
}

const titles = (curriculum: { title: string; lessons: { title: string }[] }[]) =>
  curriculum.map((section) => [section.title, section.lessons.map((lesson) => lesson.title)])

describe('building a curriculum', () => {
  it('adds, renames, arranges (moving a lesson to another section) and deletes sections and lessons', async () => {
    const { caller, courseId, sectionId, one, two } = await courseWithLessons()
    const { curriculum: withSecond } = await caller.studio.addSection({ courseId, title: 'Advanced' })
    const second = withSecond[1]?.id as string
    await caller.studio.renameSection({ courseId, sectionId, title: 'Getting started' })
    const { curriculum } = await caller.studio.arrange({
      courseId,
      sections: [
        { id: second, lessonIds: [one] },
        { id: sectionId, lessonIds: [two] },
      ],
    })
    expect(titles(curriculum)).toEqual([
      ['Advanced', ['One']],
      ['Getting started', ['Two']],
    ])
    const { curriculum: previewed } = await caller.studio.setPreview({ courseId, lessonId: two, isPreview: true })
    expect(previewed[1]?.lessons.map((lesson) => lesson.isPreview)).toEqual([true])
    expect((await caller.studio.deleteLesson({ courseId, lessonId: two })).curriculum[1]?.lessons).toEqual([])
    const { curriculum: left } = await caller.studio.deleteSection({ courseId, sectionId: second })
    expect(titles(left)).toEqual([['Getting started', []]])
    expect(await db().selectFrom('lessons').select('id').where('course_id', '=', courseId).execute()).toEqual([])
  })

  it('refuses an arrangement that leaves out, repeats or borrows an id, changing nothing', async () => {
    const { caller, courseId, sectionId, one, two } = await courseWithLessons()
    const foreign = await courseWithLessons()
    for (const lessonIds of [[one], [one, one], [one, two, foreign.one]]) {
      expect(await failure(caller.studio.arrange({ courseId, sections: [{ id: sectionId, lessonIds }] }))).toBe(
        `CONFLICT: ${STUDIO_MESSAGES.arrangement}`,
      )
    }
    const course = await caller.studio.course({ courseId })
    expect(titles(course.curriculum)).toEqual([['Basics', ['One', 'Two']]])
    expect(titles((await foreign.caller.studio.course({ courseId: foreign.courseId })).curriculum)).toEqual([
      ['Basics', ['One', 'Two']],
    ])
  })

  it('refuses a 101st section and a 201st lesson, and an arrangement of 1,000 sections, with nothing half-saved', async () => {
    const { caller, courseId, sectionId } = await courseWithLessons()
    await db()
      .insertInto('course_sections')
      .values(
        Array.from({ length: STUDIO_LIMITS.sections - 1 }, (_, i) => ({
          course_id: courseId,
          position: i + 1,
          title: `S${i}`,
        })),
      )
      .execute()
    expect(await failure(caller.studio.addSection({ courseId, title: 'One too many' }))).toBe(
      `BAD_REQUEST: ${STUDIO_MESSAGES.tooManySections}`,
    )
    await db()
      .insertInto('lessons')
      .values(
        Array.from({ length: STUDIO_LIMITS.lessons - 2 }, (_, i) => ({
          course_id: courseId,
          section_id: sectionId,
          position: i + 2,
          title: `L${i}`,
        })),
      )
      .execute()
    expect(await failure(caller.studio.addLesson({ courseId, sectionId, title: 'One too many' }))).toBe(
      `BAD_REQUEST: ${STUDIO_MESSAGES.tooManyLessons}`,
    )
    const thousand = Array.from({ length: 1000 }, () => ({ id: crypto.randomUUID(), lessonIds: [] }))
    expect(await failure(caller.studio.arrange({ courseId, sections: thousand }))).toMatch(/^BAD_REQUEST/)
    const counts = await db()
      .selectFrom('course_sections')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('course_id', '=', courseId)
      .executeTakeFirstOrThrow()
    expect(Number(counts.n)).toBe(STUDIO_LIMITS.sections)
    expect(await failure(caller.studio.addSection({ courseId, title: 'x'.repeat(10_000) }))).toMatch(/^BAD_REQUEST/)
  })
})

describe('lesson content', () => {
  it('saves a Markdown lesson and a YouTube lesson with their durations; the course counts follow', async () => {
    const { caller, courseId, one, two } = await courseWithLessons()
    await caller.studio.updateLesson({
      courseId,
      lessonId: one,
      title: 'Reading',
      isPreview: true,
      content: { type: 'text', bodyMarkdown: '# Hello', duration: '4:00' },
    })
    const video = await caller.studio.updateLesson({
      courseId,
      lessonId: two,
      title: 'Watching',
      isPreview: false,
      content: { type: 'embed', videoUrl: 'https://youtu.be/dQw4w9WgXcQ', duration: '10:30' },
    })
    expect(video).toMatchObject({ type: 'embed', videoUrl: 'https://youtu.be/dQw4w9WgXcQ', durationSeconds: 630 })
    expect(await caller.studio.lesson({ courseId, lessonId: one })).toMatchObject({
      type: 'text',
      bodyMarkdown: '# Hello',
      isPreview: true,
    })
    const row = await db()
      .selectFrom('courses')
      .select(['lessons_count', 'duration_minutes'])
      .where('id', '=', courseId)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ lessons_count: 2, duration_minutes: 15 })
    expect(
      await failure(
        caller.studio.updateLesson({
          courseId,
          lessonId: two,
          title: 'Bad link',
          isPreview: false,
          content: { type: 'embed', videoUrl: 'https://evil.example/video', duration: '1:00' },
        }),
      ),
    ).toMatch(/^BAD_REQUEST/)
  })

  it('claims a finished upload for a video lesson; replacing and deleting it give the bytes back', async () => {
    const { owner, caller, courseId, one } = await courseWithLessons()
    const first = await storedUpload(db(), owner.id, { sizeBytes: 3000, durationSeconds: 125 })
    const second = await storedUpload(db(), owner.id, { sizeBytes: 7000, durationSeconds: 61 })
    const save = (uploadId?: string) =>
      caller.studio.updateLesson({
        courseId,
        lessonId: one,
        title: 'Video',
        isPreview: false,
        content: { type: 'upload', ...(uploadId ? { uploadId } : {}) },
      })
    expect(await save(first)).toMatchObject({ type: 'upload', hasVideoFile: true, durationSeconds: 125 })
    expect(await storageUsedBytes(db(), owner.id)).toBe(10_000)
    await save() // the same file kept
    expect(await storageUsedBytes(db(), owner.id)).toBe(10_000)
    await save(second)
    expect(await storageUsedBytes(db(), owner.id)).toBe(7000)
    const lesson = await db()
      .selectFrom('lessons')
      .select(['video_key', 'duration_seconds'])
      .where('id', '=', one)
      .executeTakeFirstOrThrow()
    expect(lesson).toEqual({ video_key: `private/lessons/videos/${second}.mp4`, duration_seconds: 61 })
    await caller.studio.deleteLesson({ courseId, lessonId: one })
    expect(await storageUsedBytes(db(), owner.id)).toBe(0)
  })

  it('refuses an upload lesson without a file, another creator’s upload, and one in progress', async () => {
    const { caller, courseId, one } = await courseWithLessons()
    const other = await makeCreator(db())
    const theirs = await storedUpload(db(), other.id)
    const unfinished = await storedUpload(db(), other.id)
    await db().updateTable('creator_uploads').set({ status: 'uploading' }).where('id', '=', unfinished).execute()
    const save = (uploadId?: string) =>
      caller.studio.updateLesson({
        courseId,
        lessonId: one,
        title: 'Video',
        isPreview: false,
        content: { type: 'upload', ...(uploadId ? { uploadId } : {}) },
      })
    expect(await failure(save())).toBe('BAD_REQUEST: Upload a video for this lesson first')
    expect(await failure(save(theirs))).toMatch(/^NOT_FOUND/)
    expect(await failure(save(unfinished))).toMatch(/^NOT_FOUND/)
    const upload = await db()
      .selectFrom('creator_uploads')
      .select('lesson_id')
      .where('id', '=', theirs)
      .executeTakeFirstOrThrow()
    expect(upload.lesson_id).toBeNull()
    const lesson = await db()
      .selectFrom('lessons')
      .select(['kind', 'title'])
      .where('id', '=', one)
      .executeTakeFirstOrThrow()
    expect(lesson).toEqual({ kind: 'article', title: 'One' })
  })
})

describe('courses on sale and learners', () => {
  it('hides a lesson added to a published course from learners and from its counts until approved', async () => {
    const { caller, courseId, sectionId, one } = await courseWithLessons()
    await caller.studio.updateLesson({
      courseId,
      lessonId: one,
      title: 'One',
      isPreview: true,
      content: { type: 'text', bodyMarkdown: 'Live text', duration: '3:00' },
    })
    await db()
      .updateTable('courses')
      .set({ status: 'published', price_minor: 1999, published_at: new Date() })
      .where('id', '=', courseId)
      .execute()
    const { curriculum } = await caller.studio.addLesson({ courseId, sectionId, title: 'Brand new' })
    const added = curriculum[0]?.lessons.find((lesson) => lesson.title === 'Brand new')
    expect(added?.pendingReview).toBe(true)
    await caller.studio.updateLesson({
      courseId,
      lessonId: added?.id as string,
      title: 'Brand new',
      isPreview: true,
      content: { type: 'text', bodyMarkdown: 'Secret pending text', duration: '9:00' },
    })
    const row = await db()
      .selectFrom('courses')
      .select(['lessons_count', 'duration_minutes'])
      .where('id', '=', courseId)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ lessons_count: 2, duration_minutes: 3 })

    const { user: buyer } = await buyerOfCourse(db(), courseId)
    const learner = await callerAs(db(), buyer)
    const player = await learner.learning.course({ courseId })
    const seen = player.sections.flatMap((section) => section.lessons.map((lesson) => lesson.title))
    expect(seen).toEqual(['One', 'Two'])
    expect(player.progress.total).toBe(2)
    expect(await failure(learner.learning.lesson({ courseId, lessonId: added?.id as string }))).toMatch(/^NOT_FOUND/)
    const page = await (await callerAs(db(), null)).catalog.course({ id: courseId })
    expect(page?.curriculum.flatMap((section) => section.lessons.map((lesson) => lesson.title))).toEqual(['One', 'Two'])
  })

  it('lets the owner and co-instructors preview every lesson of their draft; nobody else sees it', async () => {
    const { caller, courseId, one } = await courseWithLessons()
    await caller.studio.updateLesson({
      courseId,
      lessonId: one,
      title: 'One',
      isPreview: false,
      content: { type: 'text', bodyMarkdown: 'Draft body', duration: '3:00' },
    })
    const co = await makeCreator(db())
    await db().insertInto('course_instructors').values({ course_id: courseId, user_id: co.id, role: 'co' }).execute()
    for (const editor of [caller, await callerAs(db(), co)]) {
      const player = await editor.learning.course({ courseId })
      expect(player).toMatchObject({ hasAccess: true, editorPreview: true })
      const lesson = await editor.learning.lesson({ courseId, lessonId: one })
      expect(lesson.locked).toBe(false)
      expect(lesson.content?.html).toContain('Draft body')
    }
    const stranger = await callerAs(db(), await createUser(db()))
    expect(await failure(stranger.learning.course({ courseId }))).toMatch(/^NOT_FOUND/)
    expect(await failure(stranger.learning.lesson({ courseId, lessonId: one }))).toMatch(/^NOT_FOUND/)
  })
})

describe('another creator', () => {
  it('gets NOT_FOUND for every section and lesson procedure on someone else’s course, and changes nothing', async () => {
    const { courseId, sectionId, one, two } = await courseWithLessons()
    const intruder = await makeCreator(db())
    const them = await callerAs(db(), intruder)
    const upload = await storedUpload(db(), intruder.id)
    const attempts: [string, () => Promise<unknown>][] = [
      ['addSection', () => them.studio.addSection({ courseId, title: 'X' })],
      ['renameSection', () => them.studio.renameSection({ courseId, sectionId, title: 'X' })],
      ['deleteSection', () => them.studio.deleteSection({ courseId, sectionId })],
      ['arrange', () => them.studio.arrange({ courseId, sections: [{ id: sectionId, lessonIds: [two, one] }] })],
      ['addLesson', () => them.studio.addLesson({ courseId, sectionId, title: 'X' })],
      ['lesson', () => them.studio.lesson({ courseId, lessonId: one })],
      [
        'updateLesson',
        () =>
          them.studio.updateLesson({
            courseId,
            lessonId: one,
            title: 'X',
            isPreview: true,
            content: { type: 'upload', uploadId: upload },
          }),
      ],
      ['deleteLesson', () => them.studio.deleteLesson({ courseId, lessonId: one })],
      ['setPreview', () => them.studio.setPreview({ courseId, lessonId: one, isPreview: true })],
    ]
    for (const [name, attempt] of attempts) expect(await failure(attempt()), name).toMatch(/^NOT_FOUND/)
    // Their own course does not open a door to ours either: ids of our section and lesson under their course.
    const own = await courseWithLessons(intruder)
    expect(await failure(them.studio.renameSection({ courseId: own.courseId, sectionId, title: 'X' }))).toMatch(
      /^NOT_FOUND/,
    )
    expect(await failure(them.studio.deleteLesson({ courseId: own.courseId, lessonId: one }))).toMatch(/^NOT_FOUND/)
    expect(
      await failure(them.studio.addLesson({ courseId: own.courseId, sectionId, title: 'Into your section' })),
    ).toMatch(/^NOT_FOUND/)
    const lessons = await db()
      .selectFrom('lessons')
      .select(['title', 'is_preview'])
      .where('course_id', '=', courseId)
      .orderBy('position')
      .execute()
    expect(lessons).toEqual([
      { title: 'One', is_preview: false },
      { title: 'Two', is_preview: false },
    ])
    const section = await db()
      .selectFrom('course_sections')
      .select('title')
      .where('id', '=', sectionId)
      .executeTakeFirstOrThrow()
    expect(section.title).toBe('Basics')
  })
})
