// The creator studio on a 390 px phone: an approved creator (made in the database) starts from the empty state,
// creates a course, fills its details, builds a curriculum with a text lesson and a YouTube lesson, and reorders
// lessons by keyboard (focus kept on the moved lesson's button, announced) and by dragging. Signed-out people go to
// the log-in page; signed-in non-creators to /teach.
import type { Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { addCourseOwner } from '../../src-server/creators/course-team.ts'
import { createCreator, createCreatorCourse } from '../support/creator-courses.ts'
import { createUser } from '../support/factories.ts'
import { developmentCategory, makeCreator, studioCourseOf } from '../support/studio.ts'
import { expect, signInAs, test } from './fixtures.ts'
import { slow } from './hold-request.ts'
import { dismissToasts } from './toasts.ts'

test.use({ viewport: { width: 390, height: 844 } })

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

async function lessonTitles(db: Kysely<Database>, courseId: string) {
  const rows = await db
    .selectFrom('lessons as l')
    .innerJoin('course_sections as s', 's.id', 'l.section_id')
    .select('l.title')
    .where('l.course_id', '=', courseId)
    .orderBy('s.position')
    .orderBy('l.position')
    .execute()
  return rows.map((row) => row.title)
}

test.describe('creator studio', () => {
  test('a creator builds a course: details, text and YouTube lessons, keyboard and drag reordering', async ({
    page,
    db,
    baseURL,
  }) => {
    test.setTimeout(90_000)
    const creator = await makeCreator(db, 'Studio Creator')
    await signInAs(page, baseURL!, db, creator)

    await page.goto('/studio')
    await expect(page.getByRole('heading', { name: 'Create your first course' })).toBeVisible()
    await expect(page.getByRole('region', { name: 'Your plan' })).toContainText('choose a plan')
    await expect(page.getByRole('link', { name: 'See plans and pricing' })).toHaveAttribute('href', '/pricing')

    // Create the course; a slow answer shows the loading state first. The loader's request may start when the
    // pointer reaches the link (preload on intent), and the router shows the loading state 1 s after the click: the
    // answer waits 3 s, so a click the busy machine delays still sees it.
    const categories = (url: URL) => url.pathname.includes('studio.categories')
    await page.route(
      categories,
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 3000))
        await route.continue()
      },
      { times: 1 },
    )
    await page.getByRole('link', { name: 'Create your first course' }).click()
    await expect(page.getByText('Loading the new course form…')).toBeVisible()
    await expect(page).toHaveURL(/\/studio\/courses\/new$/)
    await page.getByLabel('Title').fill('Phone-Made Course')
    await page.getByLabel('Category').selectOption({ label: 'Development' })
    await page.getByRole('button', { name: 'Create course' }).click()
    await expect(page).toHaveURL(/\/studio\/courses\/phone-made-course/)
    const courseId = new URL(page.url()).pathname.split('/')[3]!
    await expect(page.getByRole('heading', { name: 'Phone-Made Course' })).toBeVisible()

    // Its details.
    await page.getByLabel('Subtitle').fill('Built on a phone')
    await page.getByLabel('Description').fill('# About\n\nA course built end to end in the studio.')
    await page.getByLabel("What you'll learn (one per line)").fill('Sections\nLessons')
    await page.getByLabel('Price in GBP (£)').fill('19.99')
    await page.getByRole('button', { name: 'Save details' }).click()
    await expect(page.getByText('Course saved')).toBeVisible()
    const row = await db
      .selectFrom('courses')
      .select(['subtitle', 'price_minor', 'currency', 'what_you_will_learn', 'owner_id'])
      .where('id', '=', courseId)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({
      subtitle: 'Built on a phone',
      price_minor: 1999,
      currency: 'GBP',
      what_you_will_learn: ['Sections', 'Lessons'],
      owner_id: creator.id,
    })

    // The curriculum: one section, three lessons.
    await page.getByRole('navigation', { name: 'Course' }).getByRole('link', { name: 'Curriculum' }).click()
    await expect(page.getByText('No sections yet')).toBeVisible()
    await page.getByLabel('New section title').fill('Getting started')
    await page.getByRole('button', { name: 'Add section' }).click()
    await expect(page.getByRole('heading', { name: /Getting started/ })).toBeVisible()
    const newLesson = page.getByLabel('New lesson in Getting started')
    // Enter in the field adds the lesson (the keyboard's way). A click at the page's foot could land on the "Section
    // added" toast still sliding in over the button (bottom-end), which Playwright's hit check cannot foresee.
    for (const title of ['Welcome', 'Watch this', 'Wrap-up']) {
      await newLesson.fill(title)
      await newLesson.press('Enter')
      await expect(page.getByRole('button', { name: `Edit: ${title}` })).toBeVisible()
    }
    // Three "Lesson added" toasts stand over the lesson dialog's Save button on a slow run (CI's flaky timeout).
    await dismissToasts(page)

    // A text lesson.
    await page.getByRole('button', { name: 'Edit: Welcome' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit lesson' })
    await dialog.getByLabel('Lesson text (Markdown)').fill('# Welcome\n\nStart here.')
    await dialog.getByLabel('Duration (m:ss)').fill('3:00')
    await dialog.getByLabel(/Free preview/).check()
    await page.getByRole('button', { name: 'Save lesson' }).click()
    await expect(dialog).toBeHidden()
    // A YouTube lesson.
    await page.getByRole('button', { name: 'Edit: Watch this' }).click()
    await dialog.getByRole('radio', { name: 'YouTube or Vimeo link' }).check()
    await dialog.getByLabel('YouTube or Vimeo address').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ')
    await dialog.getByLabel('Duration (m:ss)').fill('10:30')
    await page.getByRole('button', { name: 'Save lesson' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByText('YouTube/Vimeo')).toBeVisible()
    const lessons = await db
      .selectFrom('lessons')
      .select(['title', 'kind', 'video_url', 'body_markdown', 'is_preview', 'duration_seconds'])
      .where('course_id', '=', courseId)
      .orderBy('position')
      .execute()
    expect(lessons.slice(0, 2)).toEqual([
      {
        title: 'Welcome',
        kind: 'article',
        video_url: null,
        body_markdown: '# Welcome\n\nStart here.',
        is_preview: true,
        duration_seconds: 180,
      },
      {
        title: 'Watch this',
        kind: 'video',
        video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
        body_markdown: '',
        is_preview: false,
        duration_seconds: 630,
      },
    ])

    // Reorder by keyboard: focus stays on the moved lesson's button, and the move is announced.
    const moveDown = page.getByRole('button', { name: 'Move down: Welcome' })
    await moveDown.focus()
    await page.keyboard.press('Enter')
    await expect(page.getByText('“Welcome” moved to position 2 of 3 in “Getting started”.')).toBeAttached()
    await expect(moveDown).toBeFocused()
    // The move is saved before the next press: while it saves, the button is busy and a press does nothing (a full
    // run on a loaded machine pressed again too soon).
    await expect.poll(() => lessonTitles(db, courseId)).toEqual(['Watch this', 'Welcome', 'Wrap-up'])
    await expect(moveDown).not.toHaveAttribute('aria-disabled', 'true')
    await page.keyboard.press('Enter')
    await expect(moveDown).toBeFocused()
    await expect.poll(() => lessonTitles(db, courseId)).toEqual(['Watch this', 'Wrap-up', 'Welcome'])
    // At the bottom the button stays focusable and does nothing.
    await page.keyboard.press('Enter')
    await expect(moveDown).toHaveAttribute('aria-disabled', 'true')
    await expect(moveDown).toBeFocused()

    // Reorder by dragging: Welcome back to the top.
    const rowOf = (title: string) => page.locator('li[data-lesson-id]', { hasText: title })
    await rowOf('Welcome').dragTo(rowOf('Watch this'))
    await expect.poll(() => lessonTitles(db, courseId)).toEqual(['Welcome', 'Watch this', 'Wrap-up'])
    await expect(page.locator('li[data-lesson-id]').first()).toContainText('Welcome')

    // Preview as a learner: the draft's first lesson opens for its creator, with nothing saved as progress.
    await page.getByRole('navigation', { name: 'Course' }).getByRole('link', { name: 'Preview' }).click()
    await expect(page.getByRole('note')).toContainText('Preview: you see this course as a learner will.')
    await expect(page.getByTestId('lesson-article')).toContainText('Start here.')
    await expect(page.getByRole('button', { name: 'Mark as complete' })).toHaveCount(0)
    await page.goBack()

    // Back on the list: the course with its state.
    await page.getByRole('link', { name: '← My courses' }).click()
    const card = page.getByRole('list', { name: 'Your courses' }).getByRole('listitem')
    await expect(card).toHaveCount(1)
    await expect(card).toContainText('Phone-Made Course')
    await expect(card).toContainText('Draft')
    await expect(card).toContainText('£19.99')
    // Nothing on the page is wider than the phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
  })

  test('signed-out people log in first; signed-in non-creators go to /teach; another creator’s course is not found', async ({
    page,
    db,
    baseURL,
  }) => {
    await page.goto('/studio')
    await expect(page).toHaveURL(/\/login\?redirect=%2Fstudio/)

    const customer = await createUser(db)
    await signInAs(page, baseURL!, db, customer)
    await page.goto('/studio')
    await expect(page).toHaveURL(/\/teach$/)

    const owner = await makeCreator(db, 'Owner Creator')
    const foreignId = `owned-elsewhere-${Date.now()}`
    await db
      .insertInto('courses')
      .values({
        id: foreignId,
        title: 'Not yours',
        category_id: (await db.selectFrom('categories').select('id').executeTakeFirstOrThrow()).id,
        instructor_name: 'Owner Creator',
        price_minor: 0,
        owner_id: owner.id,
        what_you_will_learn: JSON.stringify([]),
        requirements: JSON.stringify([]),
      })
      .execute()
    const other = await makeCreator(db, 'Other Creator')
    await page.context().clearCookies()
    await signInAs(page, baseURL!, db, other)
    await page.goto(`/studio/courses/${foreignId}`)
    await expect(page.getByRole('heading', { name: 'Course not found' })).toBeVisible()
  })

  test('scheduling a live session empties the form, so a second press does not book it twice', async ({
    page,
    db,
    baseURL,
  }) => {
    const creator = await createUser(db)
    const courseId = await studioCourseOf(db, creator.id)
    // A second course, on sale: the form's default although "A Course in the Studio" (a draft) comes first by title,
    // as a draft's session is hidden from every learner (decision 0142).
    const onSale = `${courseId}-on-sale`
    await db
      .insertInto('courses')
      .values({
        id: onSale,
        title: 'Zebra course on sale',
        category_id: await developmentCategory(db),
        instructor_name: 'Ada Lovelace',
        price_minor: 1999,
        owner_id: creator.id,
        status: 'published',
        what_you_will_learn: JSON.stringify(['One thing']),
        requirements: JSON.stringify([]),
      })
      .execute()
    await addCourseOwner(db, onSale, creator.id)
    await signInAs(page, baseURL!, db, creator)
    await page.goto('/studio/live')
    const form = page.getByRole('form', { name: 'Schedule a session' })
    const course = form.getByLabel('For', { exact: true })
    await expect(course).toHaveValue(onSale)
    await expect(course).not.toHaveAccessibleDescription(/Learners can’t see/)
    await course.selectOption(courseId)
    await expect(course).toHaveAccessibleDescription('Learners can’t see this session until the course is published.')
    await form.getByLabel('Title').fill('Office hours')
    await form.getByLabel("Start (in the session's time zone)").fill('2030-01-07T10:00')
    await form.getByLabel('Join link (https)').fill('https://meet.example.com/office-hours')
    await form.getByRole('button', { name: 'Schedule session' }).click()
    await expect(page.getByText('Session scheduled')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Edit or reschedule' })).toHaveCount(1)
    await expect(page.getByRole('listitem', { name: 'Office hours' })).toContainText(
      'Learners can’t see this session until the course is published.',
    )
    await expect(form.getByLabel('Title')).toHaveValue('')
    await expect(form.getByLabel('Join link (https)')).toHaveValue('')
    const booked = await db.selectFrom('live_sessions').select('title').where('course_id', '=', courseId).execute()
    expect(booked).toEqual([{ title: 'Office hours' }])
  })

  test('with the keyboard, Change photo on the profile shows the focus ring and keeps focus through the upload', async ({
    page,
    db,
    baseURL,
  }) => {
    const creator = await createUser(db)
    await studioCourseOf(db, creator.id)
    await signInAs(page, baseURL!, db, creator)
    await page.goto('/studio/profile')
    // The file input is visually hidden inside its button-like label: the label draws the ring.
    await page.getByRole('link', { name: /^\/instructors\// }).focus()
    await page.keyboard.press('Tab')
    const photo = page.getByLabel('Change photo')
    await expect(photo).toBeFocused()
    const label = page.locator('label', { has: photo })
    await expect(label).toHaveCSS('outline-style', 'solid')
    await expect(label).toHaveCSS('outline-color', 'rgb(29, 65, 184)')
    // Uploading relabels it "Uploading…"; focus stays on it rather than dropping to the page.
    await photo.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG })
    await expect(page.getByText('Photo updated')).toBeVisible()
    await expect(photo).toBeFocused()
  })

  test('a page of My courses past the end says so and leads back, not to Create your first course', async ({
    page,
    db,
    baseURL,
  }) => {
    const creator = await createUser(db)
    await studioCourseOf(db, creator.id)
    await signInAs(page, baseURL!, db, creator)
    await page.goto('/studio?page=5')
    await expect(page.getByRole('heading', { name: 'No courses on this page' })).toBeVisible()
    await expect(page.getByText('You have 1 course.')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Create your first course' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Back to the first page' }).click()
    await expect(page).toHaveURL(/\/studio$/)
    await expect(page.getByRole('list', { name: 'Your courses' }).getByRole('listitem')).toHaveCount(1)
  })

  test('a creator without Pro is told drip content comes with it, and may still open a section dripped before', async ({
    page,
    db,
    baseURL,
  }) => {
    const creator = await createUser(db)
    const courseId = await studioCourseOf(db, creator.id)
    // Set by staff (or under a plan since lapsed): the creator can open it at once, not set another.
    const section = await db
      .selectFrom('course_sections')
      .select('id')
      .where('course_id', '=', courseId)
      .executeTakeFirstOrThrow()
    await db
      .insertInto('section_drips')
      .values({ section_id: section.id, course_id: courseId, after_days: 7 })
      .execute()
    await signInAs(page, baseURL!, db, creator)
    await page.goto(`/studio/courses/${courseId}/curriculum`)
    const first = page.getByRole('listitem', { name: 'Section 1: Getting started' })
    await expect(first.getByTestId('drip-summary')).toHaveText('Opens 7 days after enrolment')
    await first.getByText('Release:').click()
    await expect(first.getByText(/Drip content is a Pro feature/)).toBeVisible()
    await expect(first.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/pricing')
    await expect(first.getByLabel('Days after enrolment')).toHaveCount(0)
    await first.getByRole('button', { name: 'Open at once' }).click()
    await expect(first.getByTestId('drip-summary')).toHaveText('Opens at once')
    await expect(first.getByRole('button', { name: 'Open at once' })).toHaveCount(0)
  })
})

test('a creator over their plan’s course limit is told their courses stay on sale and what a new one needs', async ({
  page,
  db,
  baseURL,
}) => {
  const creator = await createCreator(db, { plan: 'basic' })
  for (let n = 0; n < 6; n++) await createCreatorCourse(db, creator, { status: 'published' })
  await signInAs(page, baseURL as string, db, creator)
  await page.goto('/studio')
  const plan = page.getByRole('region', { name: 'Your plan' })
  await expect(plan).toContainText('6 of 5 published courses')
  await expect(plan.getByTestId('over-limit')).toHaveText(
    'Your courses on sale stay on sale; to publish another, unpublish 2 or choose a larger plan.',
  )
  await expect(plan.getByRole('link', { name: 'choose a larger plan' })).toHaveAttribute('href', '/pricing')
})

// The lesson editor opens while its lesson loads, and the dialog's focus trap then started on the footer's Cancel
// (the only things to focus yet): a keyboard user's next Enter closed the dialog. The form, once there, takes the
// focus to Lesson title; Save lesson is aria-disabled until then (it had nothing to save).
/** A Basic creator's new course of three lessons (the first a free preview), its curriculum open in the studio. */
async function openNewCourseCurriculum(page: Page, db: Kysely<Database>, baseURL: string) {
  const creator = await createCreator(db, { plan: 'basic' })
  const course = await createCreatorCourse(db, creator, { lessons: 3 })
  await signInAs(page, baseURL, db, creator)
  await page.goto(`/studio/courses/${course.id}/curriculum`)
  return course
}

test('with the keyboard, Edit on a lesson lands on its Lesson title field, not on Cancel', async ({
  page,
  db,
  baseURL,
}) => {
  await openNewCourseCurriculum(page, db, baseURL as string)
  await slow(page, 'studio.lesson')
  await page.getByRole('button', { name: 'Edit: Lesson 3' }).focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Edit lesson' })
  await expect(dialog.getByText('Loading the lesson…')).toBeVisible()
  const save = dialog.getByRole('button', { name: 'Save lesson' })
  await expect(save).toHaveAttribute('aria-disabled', 'true')
  await expect(dialog.getByLabel('Lesson title')).toBeFocused()
  await expect(dialog.getByLabel('Lesson title')).toHaveValue('Lesson 3')
  await expect(save).not.toHaveAttribute('aria-disabled')
  await expect(save).not.toHaveAttribute('disabled')
})

test('two lessons made free previews in quick succession both stay on, whichever answer comes back last', async ({
  page,
  db,
  baseURL,
}) => {
  const course = await openNewCourseCurriculum(page, db, baseURL as string)
  // The first switch's write commits at once, but its answer (the curriculum as that write left it) is held back
  // until the second switch has been answered: it arrives last, and older.
  let release = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  let firstAnswered = () => {}
  const firstHeld = new Promise<void>((resolve) => {
    firstAnswered = resolve
  })
  let calls = 0
  await page.route(
    (url) => url.pathname.startsWith('/trpc/') && url.pathname.includes('studio.setPreview'),
    async (route) => {
      if (++calls > 1) return route.continue()
      const response = await route.fetch()
      firstAnswered()
      await gate
      await route.fulfill({ response })
    },
  )
  const second = page.getByRole('checkbox', { name: 'Free preview: Lesson 2' })
  const third = page.getByRole('checkbox', { name: 'Free preview: Lesson 3' })
  await second.click()
  await firstHeld
  await third.click()
  await expect(third).toBeChecked()
  await expect(second).toBeChecked()
  const stale = page.waitForResponse((response) => response.url().includes('studio.setPreview') && calls === 2)
  release()
  await stale
  // The older answer is not drawn over the newer one: the page asks again and shows both on.
  await expect(page.getByText('Lesson 2')).toBeVisible()
  await page.waitForLoadState('networkidle')
  await expect(third).toBeChecked()
  await expect(second).toBeChecked()
  const previews = await db
    .selectFrom('lessons')
    .select('title')
    .where('course_id', '=', course.id)
    .where('is_preview', '=', true)
    .orderBy('title')
    .execute()
  expect(previews.map((row) => row.title)).toEqual(['Lesson 1', 'Lesson 2', 'Lesson 3'])
})
