// Submitting a creator's course for review, the staff queue's decisions, and the owner's sale controls, against a
// real database: the checklist's refusals, the plan's slots at submission and at approval, a lapse, the catalogue
// showing an approved course at once, per-item comments with their mail and audit, revisions, unpublish and delete.
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HELD_COURSE_MESSAGE } from '../../../src-server/flows/course-publishing.ts'
import {
  REVIEW_APPROVED_MAIL,
  REVIEW_CHANGED_SINCE_OPENED,
  REVIEW_CHANGES_MAIL,
  REVIEW_CHECKLIST_UNMET,
} from '../../../src-server/flows/course-review-decisions.ts'
import { NO_PLAN_MESSAGE } from '../../../src-server/flows/creator-standing.ts'
import { buildCoursesSitemap } from '../../../src-server/http/seo.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { approveAsShown, createCreator, createCreatorCourse, lapsePlan } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse } from '../../support/learning.ts'
import { addQuizLesson, SAMPLE_QUESTIONS } from '../../support/quizzes.ts'

let database: DatabaseHandle
let editor: TestUser
let viewer: TestUser
const db = () => database.db

async function failure(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (error instanceof TRPCError) return `${error.code}: ${error.message}`
    throw error
  }
  return 'OK'
}

const statusOf = async (courseId: string) =>
  (await db().selectFrom('courses').select('status').where('id', '=', courseId).executeTakeFirstOrThrow()).status

beforeAll(async () => {
  database = await createTestDatabase()
  editor = await createUser(db(), { role: 'editor' })
  viewer = await createUser(db(), { role: 'viewer' })
})
afterAll(async () => {
  await database?.close()
})

describe('submitting for review: the checklist the server enforces', () => {
  it('refuses each missing item with its own message and changes nothing', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const caller = await callerAs(db(), creator)
    const course = await createCreatorCourse(db(), creator, { ready: false, lessons: 3 })

    expect(await failure(caller.studioPublishing.submit({ courseId: course.id }))).toBe(
      'PRECONDITION_FAILED: Add a course image',
    )
    await db()
      .updateTable('courses')
      .set({ image_url: '/images/covers/development-1.svg' })
      .where('id', '=', course.id)
      .execute()
    expect(await failure(caller.studioPublishing.submit({ courseId: course.id }))).toBe(
      'PRECONDITION_FAILED: The description needs at least 200 characters (it has 9)',
    )
    await db()
      .updateTable('courses')
      .set({ description: 'x'.repeat(200) })
      .where('id', '=', course.id)
      .execute()
    expect(await failure(caller.studioPublishing.submit({ courseId: course.id }))).toBe(
      'PRECONDITION_FAILED: The course needs at least 5 lessons (it has 3)',
    )
    for (const position of [3, 4]) {
      await db()
        .insertInto('lessons')
        .values({
          course_id: course.id,
          section_id: course.sectionId,
          position,
          title: `Video ${position}`,
          kind: 'video',
        })
        .execute()
    }
    expect(await failure(caller.studioPublishing.submit({ courseId: course.id }))).toBe(
      'PRECONDITION_FAILED: Mark at least one lesson as a free preview',
    )
    await db()
      .updateTable('lessons')
      .set({ is_preview: true })
      .where('id', '=', course.lessonIds[0] as string)
      .execute()
    expect(await failure(caller.studioPublishing.submit({ courseId: course.id }))).toBe(
      'PRECONDITION_FAILED: These video lessons have no processed video yet: Video 3, Video 4',
    )
    // An uploaded file without its length is not processed; a YouTube link is.
    await db()
      .updateTable('lessons')
      .set({ video_key: 'private/lessons/videos/x.mp4' })
      .where('title', '=', 'Video 3')
      .where('course_id', '=', course.id)
      .execute()
    await db()
      .updateTable('lessons')
      .set({ video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' })
      .where('title', '=', 'Video 4')
      .where('course_id', '=', course.id)
      .execute()
    expect(await failure(caller.studioPublishing.submit({ courseId: course.id }))).toBe(
      'PRECONDITION_FAILED: These video lessons have no processed video yet: Video 3',
    )
    expect(await statusOf(course.id)).toBe('draft')
    await db()
      .updateTable('lessons')
      .set({ video_duration_seconds: 95 })
      .where('title', '=', 'Video 3')
      .where('course_id', '=', course.id)
      .execute()

    const page = await caller.studioPublishing.page({ courseId: course.id })
    expect(page.checklist.every((item) => item.done)).toBe(true)
    expect(page.canSubmit).toBe(true)
    expect(await caller.studioPublishing.submit({ courseId: course.id })).toMatchObject({ kind: 'first' })
    expect(await statusOf(course.id)).toBe('in_review')
    const rows = await db()
      .selectFrom('course_submissions')
      .select(['kind', 'status'])
      .where('course_id', '=', course.id)
      .execute()
    expect(rows).toEqual([{ kind: 'first', status: 'pending' }])
    expect(await failure(caller.studioPublishing.submit({ courseId: course.id }))).toBe(
      'CONFLICT: This course is already waiting for review',
    )
  })

  it('refuses a quiz lesson without questions, naming it: a buyer could never pass it (stop 84)', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const caller = await callerAs(db(), creator)
    const course = await createCreatorCourse(db(), creator)
    // A lesson switched to Quiz and never saved (no quizzes row), and a quiz saved with no questions.
    const switched = await db()
      .updateTable('lessons')
      .set({ kind: 'quiz' })
      .where('id', '=', course.lessonIds[2] as string)
      .returning(['id', 'title'])
      .executeTakeFirstOrThrow()
    const savedEmpty = await addQuizLesson(db(), course.id, 'Empty check', [])

    const page = await caller.studioPublishing.page({ courseId: course.id })
    expect(page.checklist.find((item) => item.id === 'quizzes')).toEqual({
      id: 'quizzes',
      label: 'Every quiz lesson has at least one question',
      done: false,
      detail: `These quiz lessons have no questions yet: ${switched.title}, Empty check`,
    })
    expect(page.canSubmit).toBe(false)
    expect(await failure(caller.studioPublishing.submit({ courseId: course.id }))).toBe(
      `PRECONDITION_FAILED: These quiz lessons have no questions yet: ${switched.title}, Empty check`,
    )
    expect(await statusOf(course.id)).toBe('draft')

    await db()
      .updateTable('quizzes')
      .set({ questions: JSON.stringify(SAMPLE_QUESTIONS.slice(0, 2)) })
      .where('lesson_id', '=', savedEmpty)
      .execute()
    await db()
      .insertInto('quizzes')
      .values({ lesson_id: switched.id, course_id: course.id, questions: JSON.stringify(SAMPLE_QUESTIONS) })
      .execute()
    const ready = await caller.studioPublishing.page({ courseId: course.id })
    expect(ready.checklist.find((item) => item.id === 'quizzes')).toMatchObject({
      done: true,
      detail: '2 quizzes with questions',
    })
    const { submissionId } = await caller.studioPublishing.submit({ courseId: course.id })
    // The reviewer sees each quiz's question count beside it.
    const detail = await (await callerAs(db(), editor)).admin.courseReviews.detail({ submissionId })
    const lessons = detail.sections.flatMap((section) => section.lessons)
    expect(lessons.find((lesson) => lesson.id === switched.id)?.questionCount).toBe(5)
    expect(lessons.find((lesson) => lesson.id === savedEmpty)?.questionCount).toBe(2)
    expect(lessons.find((lesson) => lesson.id === course.lessonIds[0])?.questionCount).toBeNull()

    // The quiz is emptied while the course waits: staff cannot publish it as it is, and it stays in review.
    await db()
      .updateTable('quizzes')
      .set({ questions: JSON.stringify([]) })
      .where('lesson_id', '=', savedEmpty)
      .execute()
    const staff = await callerAs(db(), editor)
    expect(await failure(approveAsShown(staff, submissionId))).toBe(
      `PRECONDITION_FAILED: ${REVIEW_CHECKLIST_UNMET}: These quiz lessons have no questions yet: Empty check. Request changes instead.`,
    )
    expect(await statusOf(course.id)).toBe('in_review')
  })

  it('lets a creator without a live plan build drafts but submit nothing, naming the plan that fits', async () => {
    const creator = await createCreator(db(), { plan: null })
    const caller = await callerAs(db(), creator)
    const course = await createCreatorCourse(db(), creator)
    const page = await caller.studioPublishing.page({ courseId: course.id })
    expect(page.plan.live).toBe(false)
    expect(page.planThatFits).toEqual({ id: 'basic', name: 'Basic' })
    expect(page.checklist.find((item) => item.id === 'plan')).toMatchObject({ done: false, detail: NO_PLAN_MESSAGE })
    expect(await failure(caller.studioPublishing.submit({ courseId: course.id }))).toBe(
      `PRECONDITION_FAILED: ${NO_PLAN_MESSAGE}`,
    )
    expect(await statusOf(course.id)).toBe('draft')
  })

  it('withdraws a pending first submission back to the draft', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const caller = await callerAs(db(), creator)
    const course = await createCreatorCourse(db(), creator)
    await caller.studioPublishing.submit({ courseId: course.id })
    await caller.studioPublishing.withdraw({ courseId: course.id })
    expect(await statusOf(course.id)).toBe('draft')
    expect((await caller.studioPublishing.page({ courseId: course.id })).latestSubmission?.status).toBe('withdrawn')
    expect(await failure(caller.studioPublishing.withdraw({ courseId: course.id }))).toBe(
      'CONFLICT: There is no submission waiting for review',
    )
  })
})

describe('the Basic plan publishes up to 5 courses', () => {
  it('refuses the 6th at submission, and at approval after a downgrade', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const caller = await callerAs(db(), creator)
    for (let n = 0; n < 5; n++) await createCreatorCourse(db(), creator, { status: 'published' })
    const sixth = await createCreatorCourse(db(), creator)
    expect(await failure(caller.studioPublishing.submit({ courseId: sixth.id }))).toBe(
      'PRECONDITION_FAILED: Your Basic plan publishes up to 5 courses: upgrade your plan to publish more',
    )
    expect((await caller.studioPublishing.page({ courseId: sixth.id })).planThatFits).toEqual({
      id: 'pro',
      name: 'Pro',
    })
    // A course already on sale holds its slot: its page neither fails the plan item nor advises another plan.
    const [onSale] = await db()
      .selectFrom('courses')
      .select('id')
      .where('owner_id', '=', creator.id)
      .where('status', '=', 'published')
      .execute()
    const published = await caller.studioPublishing.page({ courseId: onSale!.id })
    expect(published.planThatFits).toBeNull()
    expect(published.checklist.find((item) => item.id === 'plan')).toMatchObject({
      done: true,
      detail: '5 of 5 publishing slots used',
    })

    // A Pro creator submits the 6th, then drops to Basic before staff decide: approval is refused.
    const pro = await createCreator(db(), { plan: 'pro' })
    for (let n = 0; n < 5; n++) await createCreatorCourse(db(), pro, { status: 'published' })
    const course = await createCreatorCourse(db(), pro)
    const { submissionId } = await (await callerAs(db(), pro)).studioPublishing.submit({ courseId: course.id })
    // The downgrade: the live subscription now holds Basic.
    await db().updateTable('subscriptions').set({ plan_id: 'basic' }).where('user_id', '=', pro.id).execute()
    const staff = await callerAs(db(), editor)
    expect(await failure(approveAsShown(staff, submissionId))).toBe(
      'PRECONDITION_FAILED: The creator’s Basic plan has no free publishing slot (5 of 5 used by other courses): they must upgrade or unpublish a course before this one can be approved',
    )
    expect(await statusOf(course.id)).toBe('in_review')
  })

  it('keeps published courses on sale after a lapse, and refuses new submissions and republishing', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const caller = await callerAs(db(), creator)
    const live = await createCreatorCourse(db(), creator, { status: 'published' })
    const hidden = await createCreatorCourse(db(), creator, { status: 'unpublished' })
    const draft = await createCreatorCourse(db(), creator)
    await lapsePlan(db(), creator.id)
    expect(await statusOf(live.id)).toBe('published')
    const visitor = await callerAs(db(), null)
    expect(await visitor.catalog.course({ id: live.id })).not.toBeNull()
    expect(await failure(caller.studioPublishing.submit({ courseId: draft.id }))).toBe(
      `PRECONDITION_FAILED: ${NO_PLAN_MESSAGE}`,
    )
    expect(await failure(caller.studioPublishing.republish({ courseId: hidden.id }))).toBe(
      `PRECONDITION_FAILED: ${NO_PLAN_MESSAGE}`,
    )
    expect(await statusOf(hidden.id)).toBe('unpublished')
  })
})

describe('staff decisions', () => {
  it('approving puts the course in search, its category page and the sitemap at once, audited and mailed', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const course = await createCreatorCourse(db(), creator, { title: 'Quantum Basket Weaving' })
    const visitor = await callerAs(db(), null)
    // Read first, so the catalogue's per-node snapshot is held before the approval.
    expect((await visitor.catalog.search({ search: 'Quantum Basket' })).items).toHaveLength(0)
    const categoryBefore = await visitor.catalog.search({ category: 'development', pageSize: 48, sort: 'newest' })
    const { submissionId } = await (await callerAs(db(), creator)).studioPublishing.submit({ courseId: course.id })

    const staff = await callerAs(db(), editor)
    const queue = await staff.admin.courseReviews.list({ kind: 'first' })
    expect(queue.items.map((item) => item.id)).toContain(submissionId)
    expect(await approveAsShown(staff, submissionId)).toMatchObject({ status: 'published' })

    expect(await statusOf(course.id)).toBe('published')
    expect((await visitor.catalog.search({ search: 'Quantum Basket' })).items.map((c) => c.id)).toEqual([course.id])
    const categoryAfter = await visitor.catalog.search({ category: 'development', pageSize: 48, sort: 'newest' })
    expect(categoryAfter.total).toBe(categoryBefore.total + 1)
    expect(categoryAfter.items.map((c) => c.id)).toContain(course.id)
    const categories = await visitor.catalog.categories()
    expect(categories.find((c) => c.slug === 'development')?.count).toBe(categoryBefore.total + 1)
    expect(await visitor.catalog.course({ id: course.id })).toMatchObject({ title: 'Quantum Basket Weaving' })
    const sitemap = await buildCoursesSitemap({ db: db(), config: defaultAppConfig }, 1)
    expect(sitemap).toContain(`/courses/${course.id}</loc>`)

    const mail = await latestMailTo(db(), creator.email, REVIEW_APPROVED_MAIL)
    expect(mail?.subject).toBe('“Quantum Basket Weaving” is published')
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'actor_email'])
      .where('entity_id', '=', course.id)
      .execute()
    expect(audit).toEqual([{ action: 'course.review.approve', actor_email: editor.email }])
    expect(await failure(approveAsShown(staff, submissionId))).toBe(
      'CONFLICT: This submission was already decided or withdrawn',
    )
  })

  it('shows the reviewer the description as buyers will read it: Markdown rendered and sanitised', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const course = await createCreatorCourse(db(), creator)
    const description = `# Who this is for\n\nBakers who **scale up**.<script>alert(1)</script>\n\n${'More words. '.repeat(20)}`
    await db().updateTable('courses').set({ description }).where('id', '=', course.id).execute()
    const { submissionId } = await (await callerAs(db(), creator)).studioPublishing.submit({ courseId: course.id })
    const detail = await (await callerAs(db(), editor)).admin.courseReviews.detail({ submissionId })
    expect(detail.course.description).toBe(description)
    expect(detail.course.descriptionHtml).toContain('<h2>Who this is for</h2>')
    expect(detail.course.descriptionHtml).toContain('<strong>scale up</strong>')
    expect(detail.course.descriptionHtml).not.toContain('<script')
  })

  it('requests changes with a comment per item: the creator reads them, is mailed, and it is audited', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const creatorCaller = await callerAs(db(), creator)
    const course = await createCreatorCourse(db(), creator, { title: 'Sourdough at Scale' })
    const { submissionId } = await creatorCaller.studioPublishing.submit({ courseId: course.id })
    const staff = await callerAs(db(), editor)
    const detail = await staff.admin.courseReviews.detail({ submissionId })
    expect(detail.course.title).toBe('Sourdough at Scale')
    expect(detail.sections[0]?.lessons).toHaveLength(5)
    expect(detail.owner.email).toBe(creator.email)
    const lesson = await staff.admin.courseReviews.lesson({
      courseId: course.id,
      lessonId: course.lessonIds[1] as string,
    })
    expect(lesson.bodyMarkdown).toContain('Lesson 2')

    expect(await failure(staff.admin.courseReviews.requestChanges({ submissionId, comments: [] }))).toContain(
      'Add at least one comment',
    )
    const comments = [
      { item: 'title', comment: 'Say who the course is for.' },
      { item: 'lesson: Lesson 3', comment: 'The audio is quiet.' },
    ]
    await staff.admin.courseReviews.requestChanges({ submissionId, comments })
    expect(await statusOf(course.id)).toBe('changes_requested')

    const page = await creatorCaller.studioPublishing.page({ courseId: course.id })
    expect(page.latestSubmission).toMatchObject({ status: 'changes_requested', comments })
    const mail = await latestMailTo(db(), creator.email, REVIEW_CHANGES_MAIL)
    expect(mail?.text_body).toContain('- Title: Say who the course is for.')
    expect(mail?.text_body).toContain('- Lesson “Lesson 3”: The audio is quiet.')
    expect(mail?.text_body).toContain(`/studio/courses/${course.id}/publish`)
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('entity_id', '=', course.id)
      .executeTakeFirstOrThrow()
    expect(audit.action).toBe('course.review.request_changes')
    expect(JSON.stringify(audit.after)).toContain('The audio is quiet.')

    // Fixed and submitted again: a new first submission.
    const again = await creatorCaller.studioPublishing.submit({ courseId: course.id })
    expect(again.kind).toBe('first')
    expect(await statusOf(course.id)).toBe('in_review')
  })

  it('lets viewers read the queue but only editors and up decide; customers and creators see nothing', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const course = await createCreatorCourse(db(), creator)
    const { submissionId } = await (await callerAs(db(), creator)).studioPublishing.submit({ courseId: course.id })
    const asViewer = await callerAs(db(), viewer)
    expect((await asViewer.admin.courseReviews.detail({ submissionId })).submission.id).toBe(submissionId)
    expect(await failure(asViewer.admin.courseReviews.approve({ submissionId, version: 'any' }))).toBe(
      'FORBIDDEN: You do not have permission to do that',
    )
    expect(
      await failure(
        asViewer.admin.courseReviews.requestChanges({ submissionId, comments: [{ item: 'other', comment: 'x' }] }),
      ),
    ).toBe('FORBIDDEN: You do not have permission to do that')
    const asCreator = await callerAs(db(), creator)
    expect(await failure(asCreator.admin.courseReviews.list({}))).toBe(
      'FORBIDDEN: You do not have permission to do that',
    )
    expect(await failure(asCreator.admin.courseReviews.approve({ submissionId, version: 'any' }))).toBe(
      'FORBIDDEN: You do not have permission to do that',
    )
    expect(await statusOf(course.id)).toBe('in_review')
  })
})

describe('revisions of a published course', () => {
  it('approves only what the reviewer saw: edited after the page was opened, it is refused, then approved as reloaded', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const course = await createCreatorCourse(db(), creator, { status: 'published', title: 'Seen Title' })
    // The creator's saves of the published course, as the studio writes them (course_drafts), and of a lesson.
    const saveDraft = (fields: Record<string, unknown>) =>
      db()
        .insertInto('course_drafts')
        .values({ course_id: course.id, fields: JSON.stringify(fields) })
        .onConflict((oc) => oc.column('course_id').doUpdateSet({ fields: JSON.stringify(fields) }))
        .execute()
    const liveTitle = async () =>
      (await db().selectFrom('courses').select('title').where('id', '=', course.id).executeTakeFirstOrThrow()).title
    await saveDraft({ title: 'Reviewed Title' })
    const { submissionId } = await (await callerAs(db(), creator)).studioPublishing.submit({ courseId: course.id })
    const staff = await callerAs(db(), editor)
    const opened = await staff.admin.courseReviews.detail({ submissionId })
    // A sale while the page is open changes nothing the reviewer reads.
    await db().updateTable('courses').set({ students_count: 41 }).where('id', '=', course.id).execute()
    expect((await staff.admin.courseReviews.detail({ submissionId })).version).toBe(opened.version)

    await saveDraft({ title: 'Unseen Title', priceUsdMinor: 99 })
    expect(await failure(staff.admin.courseReviews.approve({ submissionId, version: opened.version }))).toBe(
      `CONFLICT: ${REVIEW_CHANGED_SINCE_OPENED}`,
    )
    const lessonEdited = await staff.admin.courseReviews.detail({ submissionId })
    await db()
      .updateTable('lessons')
      .set({ title: 'Renamed lesson', updated_at: new Date(Date.now() + 1000) })
      .where('course_id', '=', course.id)
      .execute()
    expect(await failure(staff.admin.courseReviews.approve({ submissionId, version: lessonEdited.version }))).toBe(
      `CONFLICT: ${REVIEW_CHANGED_SINCE_OPENED}`,
    )
    expect(await liveTitle()).toBe('Seen Title')

    // Reloaded, the page shows what the course holds now, and approving that applies it.
    const reloaded = await staff.admin.courseReviews.detail({ submissionId })
    expect(reloaded.diff.find((change) => change.field === 'title')?.draft).toBe('Unseen Title')
    await staff.admin.courseReviews.approve({ submissionId, version: reloaded.version })
    expect(await liveTitle()).toBe('Unseen Title')
  })

  it('keeps the course on sale while its edits are reviewed, then applies the draft and shows pending lessons', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const caller = await callerAs(db(), creator)
    const course = await createCreatorCourse(db(), creator, { status: 'published', title: 'Old Title' })
    expect(await failure(caller.studioPublishing.submit({ courseId: course.id }))).toBe(
      'CONFLICT: Nothing to review: edit the published course first',
    )
    await db()
      .insertInto('course_drafts')
      .values({
        course_id: course.id,
        // A GBP price beside the USD one (decision 0069); the USD price is left as it is.
        fields: JSON.stringify({ title: 'New Title', priceGbpMinor: 2500 }),
      })
      .execute()
    await db()
      .insertInto('lessons')
      .values({
        course_id: course.id,
        section_id: course.sectionId,
        position: 5,
        title: 'Bonus lesson',
        duration_seconds: 1200,
        pending_review: true,
      })
      .execute()
    const { submissionId, kind } = await caller.studioPublishing.submit({ courseId: course.id })
    expect(kind).toBe('revision')
    expect(await statusOf(course.id)).toBe('published')

    const staff = await callerAs(db(), editor)
    const detail = await staff.admin.courseReviews.detail({ submissionId })
    expect(detail.diff).toEqual([
      { field: 'title', live: 'Old Title', draft: 'New Title' },
      { field: 'price', live: '$49.00', draft: '$49.00 or £25.00' },
    ])
    expect(detail.course.pricesLabel).toBe('$49.00')
    expect(detail.pendingLessons.map((l) => l.title)).toEqual(['Bonus lesson'])

    // Changes requested on a revision: the course stays on sale, as it was.
    await staff.admin.courseReviews.requestChanges({ submissionId, comments: [{ item: 'price', comment: 'Too low?' }] })
    expect(await statusOf(course.id)).toBe('published')
    const second = await caller.studioPublishing.submit({ courseId: course.id })
    await approveAsShown(staff, second.submissionId)

    const row = await db()
      .selectFrom('courses')
      .select([
        'status',
        'title',
        'price_minor',
        'currency',
        'price_usd_minor',
        'price_gbp_minor',
        'lessons_count',
        'duration_minutes',
      ])
      .where('id', '=', course.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({
      status: 'published',
      title: 'New Title',
      price_minor: 4900,
      currency: 'USD',
      price_usd_minor: 4900,
      price_gbp_minor: 2500,
      lessons_count: 6,
      duration_minutes: 70,
    })
    const pending = await db()
      .selectFrom('lessons')
      .select('id')
      .where('course_id', '=', course.id)
      .where('pending_review', '=', true)
      .execute()
    expect(pending).toHaveLength(0)
    expect(
      await db().selectFrom('course_drafts').select('course_id').where('course_id', '=', course.id).execute(),
    ).toHaveLength(0)
    expect((await latestMailTo(db(), creator.email, REVIEW_APPROVED_MAIL))?.subject).toBe(
      'Your changes to “New Title” are live',
    )
  })
})

describe('unpublish, republish and delete (owner only)', () => {
  it('unpublish hides the course from the catalogue and sitemap; its buyer keeps the lessons', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const caller = await callerAs(db(), creator)
    const course = await createCreatorCourse(db(), creator, { status: 'published', title: 'Hidden Gardens' })
    const { user: buyer } = await buyerOfCourse(db(), course.id)
    await caller.studioPublishing.unpublish({ courseId: course.id })
    expect(await statusOf(course.id)).toBe('unpublished')
    const visitor = await callerAs(db(), null)
    expect((await visitor.catalog.search({ search: 'Hidden Gardens' })).items).toHaveLength(0)
    expect(await visitor.catalog.course({ id: course.id })).toBeNull()
    expect(await buildCoursesSitemap({ db: db(), config: defaultAppConfig }, 1)).not.toContain(`/courses/${course.id}<`)
    const lesson = await (await callerAs(db(), buyer)).learning.lesson({
      courseId: course.id,
      lessonId: course.lessonIds[2] as string,
    })
    expect(lesson).toMatchObject({ locked: false })
    expect(await failure(caller.studioPublishing.delete({ courseId: course.id }))).toBe(
      `CONFLICT: ${HELD_COURSE_MESSAGE}`,
    )

    await caller.studioPublishing.republish({ courseId: course.id })
    expect(await statusOf(course.id)).toBe('published')
    expect((await visitor.catalog.search({ search: 'Hidden Gardens' })).items.map((c) => c.id)).toEqual([course.id])
  })

  it('republishing needs a free slot; edits waiting for review go through review', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const caller = await callerAs(db(), creator)
    const hidden = await createCreatorCourse(db(), creator, { status: 'unpublished' })
    await db()
      .insertInto('course_drafts')
      .values({ course_id: hidden.id, fields: JSON.stringify({ title: 'T2' }) })
      .execute()
    expect(await failure(caller.studioPublishing.republish({ courseId: hidden.id }))).toBe(
      'PRECONDITION_FAILED: This course has edits waiting for review: submit it for review instead',
    )
    await db().deleteFrom('course_drafts').where('course_id', '=', hidden.id).execute()
    for (let n = 0; n < 5; n++) await createCreatorCourse(db(), creator, { status: 'published' })
    expect(await failure(caller.studioPublishing.republish({ courseId: hidden.id }))).toBe(
      'PRECONDITION_FAILED: Your Basic plan publishes up to 5 courses: upgrade your plan to publish more',
    )
  })

  it('deletes a course nobody holds and gives its videos’ bytes back', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const caller = await callerAs(db(), creator)
    const course = await createCreatorCourse(db(), creator)
    await db()
      .insertInto('creator_uploads')
      .values({
        id: 'upload-delete-test',
        user_id: creator.id,
        storage_owner_id: creator.id,
        size_bytes: 1000,
        status: 'stored',
        storage_key: 'private/lessons/videos/upload-delete-test.mp4',
        lesson_id: course.lessonIds[0] as string,
      })
      .execute()
    const page = await caller.studioPublishing.page({ courseId: course.id })
    expect(page.role).toBe('owner')
    await caller.studioPublishing.delete({ courseId: course.id })
    expect(await db().selectFrom('courses').select('id').where('id', '=', course.id).execute()).toHaveLength(0)
    const upload = await db()
      .selectFrom('creator_uploads')
      .select('status')
      .where('id', '=', 'upload-delete-test')
      .executeTakeFirstOrThrow()
    expect(upload.status).toBe('released')
  })
})

describe('another creator’s course answers not found, for every procedure', () => {
  it('creator B cannot read, submit, withdraw, unpublish, republish, delete or manage A’s course', async () => {
    const a = await createCreator(db(), { plan: 'pro' })
    const b = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), a, { status: 'published' })
    const asB = await callerAs(db(), b)
    const courseId = course.id
    const NOT_FOUND = 'NOT_FOUND: Course not found'
    expect(await failure(asB.studioPublishing.page({ courseId }))).toBe(NOT_FOUND)
    expect(await failure(asB.studioPublishing.submit({ courseId }))).toBe(NOT_FOUND)
    expect(await failure(asB.studioPublishing.withdraw({ courseId }))).toBe(NOT_FOUND)
    expect(await failure(asB.studioPublishing.unpublish({ courseId }))).toBe(NOT_FOUND)
    expect(await failure(asB.studioPublishing.republish({ courseId }))).toBe(NOT_FOUND)
    expect(await failure(asB.studioPublishing.delete({ courseId }))).toBe(NOT_FOUND)
    expect(await failure(asB.studioPublishing.team({ courseId }))).toBe(NOT_FOUND)
    expect(await failure(asB.studioPublishing.invite({ courseId, email: 'friend@example.test' }))).toBe(NOT_FOUND)
    expect(
      await failure(asB.studioPublishing.cancelInvite({ courseId, inviteId: '00000000-0000-4000-8000-000000000000' })),
    ).toBe(NOT_FOUND)
    expect(await failure(asB.studioPublishing.removeCoInstructor({ courseId, userId: a.id }))).toBe(NOT_FOUND)
    expect(await statusOf(courseId)).toBe('published')
    // A customer who is not a creator is refused the studio outright.
    const customer = await callerAs(db(), await createUser(db()))
    expect(await failure(customer.studioPublishing.page({ courseId }))).toBe(
      'FORBIDDEN: Only approved creators can use the studio',
    )
  })
})
