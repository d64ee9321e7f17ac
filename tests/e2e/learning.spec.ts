// The learner's journeys: buy a course by card (fake Stripe), Go to course, read an article and Mark as complete,
// play a video and resume it after a reload, finish the course and open its certificate signed out; a non-buyer
// sees locks; a preview lesson plays from the course page.
import type { Page } from '@playwright/test'
import { checkoutByCard } from './buy-plan.ts'
import { expect, test } from './fixtures.ts'

const COURSE = 'modern-react-typescript'

async function lessons(db: Parameters<Parameters<typeof test>[2]>[0]['db']) {
  return db
    .selectFrom('lessons as l')
    .innerJoin('course_sections as s', 's.id', 'l.section_id')
    .select(['l.id', 'l.title', 'l.kind', 'l.is_preview'])
    .where('l.course_id', '=', COURSE)
    .orderBy('s.position')
    .orderBy('l.position')
    .execute()
}

/** Plays the page's lesson video (muted, so the browser allows it) until it has run `seconds`, then pauses it. */
async function playFor(page: Page, seconds: number) {
  const video = page.getByTestId('lesson-video')
  await expect(video).toBeVisible()
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true
    await element.play()
  })
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(seconds)
  await video.evaluate((element: HTMLVideoElement) => element.pause())
}

test.describe('learning', () => {
  test('a buyer takes the course: article, video with resume, completion and certificate', async ({
    page,
    login,
    db,
    context,
  }) => {
    test.setTimeout(120_000)
    const user = await login({ firstName: 'Grace', lastName: 'Hopper' })
    const all = await lessons(db)
    const article = all.find((l) => l.kind === 'article' && !l.is_preview)
    const video = all.find((l) => l.kind === 'video' && !l.is_preview)
    if (!article || !video) throw new Error('the seed gives this course locked article and video lessons')

    // Buy it by card through the fake Stripe.
    await page.goto(`/courses/${COURSE}`)
    const purchase = page.getByRole('complementary', { name: 'Purchase' })
    await purchase.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(purchase.getByRole('button', { name: 'Added to Cart' })).toBeDisabled()
    await checkoutByCard(page)

    // Go to course: the player opens on the first lesson; the course page said "Not started".
    await page.goto(`/courses/${COURSE}`)
    await expect(purchase.getByTestId('learning-status')).toHaveText('Not started')
    await purchase.getByRole('link', { name: 'Go to course' }).click()
    await expect(page).toHaveURL(new RegExp(`/learn/${COURSE}/${all[0]?.id}$`))
    const curriculum = page.getByRole('navigation', { name: 'Course curriculum' })
    await expect(curriculum.getByRole('img', { name: 'Locked' })).toHaveCount(0)

    // Read an article lesson and mark it complete; it stays complete after a reload.
    await curriculum.getByRole('link', { name: new RegExp(article.title) }).click()
    await expect(page.getByRole('heading', { level: 1, name: article.title })).toBeVisible()
    await expect(page.getByTestId('lesson-article')).toContainText('Exercise')
    // From the keyboard: Mark as complete, then undo it, then mark it again.
    await page.getByRole('button', { name: 'Mark as complete' }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('button', { name: 'Completed' })).toBeFocused()
    await expect(page.getByTestId('course-progress')).toHaveText(`1 of ${all.length} lessons complete`)
    await page.keyboard.press('Enter')
    await expect(page.getByRole('button', { name: 'Mark as complete' })).toBeVisible()
    await expect(page.getByTestId('course-progress')).toHaveText(`0 of ${all.length} lessons complete`)
    await page.keyboard.press('Space')
    await expect(page.getByRole('button', { name: 'Completed' })).toBeVisible()
    await expect(page.getByTestId('course-progress')).toHaveText(`1 of ${all.length} lessons complete`)
    await page.reload()
    await expect(page.getByRole('button', { name: 'Completed' })).toBeVisible()
    await expect(page.getByTestId('course-progress')).toHaveText(`1 of ${all.length} lessons complete`)
    await expect(curriculum.getByRole('img', { name: 'Completed' })).toHaveCount(1)

    // Play a video lesson, pause (which saves), reload: it resumes where it was.
    await curriculum.getByRole('link', { name: new RegExp(video.title) }).click()
    await playFor(page, 3)
    await expect
      .poll(async () => {
        const row = await db
          .selectFrom('lesson_progress')
          .select('position_seconds')
          .where('user_id', '=', user.id)
          .where('lesson_id', '=', video.id)
          .executeTakeFirst()
        return row?.position_seconds ?? 0
      })
      .toBeGreaterThan(2)
    await page.reload()
    await expect
      .poll(() => page.getByTestId('lesson-video').evaluate((element: HTMLVideoElement) => element.currentTime))
      .toBeGreaterThan(2)

    // The rest of the course done (as earlier sessions would have), the last lesson by hand: the course completes.
    const last = all.at(-1)
    if (!last) throw new Error('no lessons')
    await db
      .insertInto('lesson_progress')
      .values(
        all
          .filter((l) => l.id !== last.id && l.id !== article.id)
          .map((l) => ({
            user_id: user.id,
            course_id: COURSE,
            lesson_id: l.id,
            completed_at: new Date(),
            updated_at: new Date(),
          })),
      )
      .onConflict((oc) => oc.columns(['user_id', 'lesson_id']).doUpdateSet({ completed_at: new Date() }))
      .execute()
    await page.goto(`/learn/${COURSE}/${last.id}`)
    await page.getByRole('button', { name: 'Mark as complete' }).click()
    await expect(page.getByTestId('course-progress')).toHaveText(`${all.length} of ${all.length} lessons complete`)
    const certificateLink = page.getByRole('link', { name: 'View your certificate' })
    await expect(certificateLink).toBeVisible()
    const href = await certificateLink.getAttribute('href')

    // My courses says Completed.
    await page.goto('/account')
    await expect(page.getByTestId('my-course-status').first()).toContainText('Completed')

    // Signed out, the certificate page is public.
    await context.clearCookies()
    await page.goto(href ?? '/')
    await expect(page.getByRole('heading', { name: 'Certificate of Completion' })).toBeVisible()
    await expect(page.getByTestId('certificate-learner')).toHaveText('Grace Hopper')
    await expect(page.getByTestId('certificate-status')).toHaveText('Verified')
    await expect(page.getByRole('link', { name: 'Add to LinkedIn profile' })).toHaveAttribute(
      'href',
      /linkedin\.com\/profile\/add/,
    )
    const pdf = await page.request.get(`${href}/pdf`.replace('/certificates/', '/api/certificates/'))
    expect(pdf.headers()['content-type']).toBe('application/pdf')

    await page.goto('/certificates/00000000-0000-4000-8000-000000000000')
    await expect(page.getByText('404', { exact: true })).toBeVisible()
  })

  test('a signed-in non-buyer sees locks and no lesson content', async ({ page, login, db }) => {
    await login()
    const locked = (await lessons(db)).find((l) => !l.is_preview)
    await page.goto(`/learn/${COURSE}/${locked?.id}`)
    await expect(page.getByTestId('locked-lesson')).toContainText('This lesson is locked')
    await expect(page.getByTestId('lesson-article')).toHaveCount(0)
    const curriculum = page.getByRole('navigation', { name: 'Course curriculum' })
    expect(await curriculum.getByRole('img', { name: 'Locked' }).count()).toBeGreaterThan(5)
    await expect(page.getByRole('button', { name: 'Mark as complete' })).toHaveCount(0)
  })

  test('a preview lesson plays from the course page', async ({ page, db }) => {
    const preview = (await lessons(db)).find((l) => l.is_preview && l.kind === 'video')
    await page.goto(`/courses/${COURSE}`)
    await page.getByRole('button', { name: `Preview: ${preview?.title}` }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog.getByRole('heading', { name: `Preview: ${preview?.title}` })).toBeVisible()
    await playFor(page, 1)
    await dialog.getByRole('button', { name: 'Close preview' }).click()
    await expect(dialog).toHaveCount(0)
  })

  test('an editor writes a lesson in the admin; learners read it rendered and sanitised', async ({
    page,
    login,
    db,
  }) => {
    await login({ role: 'editor' })
    const course = await db
      .selectFrom('courses')
      .select(['id', 'title'])
      .where('id', '=', 'sql-for-analysts')
      .executeTakeFirstOrThrow()
    const first = await db
      .selectFrom('lessons as l')
      .innerJoin('course_sections as s', 's.id', 'l.section_id')
      .select(['l.id', 'l.title'])
      .where('l.course_id', '=', course.id)
      .orderBy('s.position')
      .orderBy('l.position')
      .executeTakeFirstOrThrow()
    await page.goto('/admin/courses')
    await page.getByPlaceholder('Search courses...').fill('SQL for Analysts')
    await page.getByRole('button', { name: `Edit ${course.title}` }).click()
    const edit = page.getByRole('dialog', { name: 'Edit Course' })
    await edit.getByRole('button', { name: 'Edit content of lesson 1 of section 1' }).click()
    const content = page.getByRole('dialog', { name: `Lesson content: ${first.title}` })
    const text = content.getByLabel('Lesson text (Markdown)')
    await expect(text).toHaveValue(/## /)
    await text.fill('## Joins in practice\n\nA **custom** paragraph. <script>window.hacked = 1</script>')
    await content.getByRole('button', { name: 'Save Lesson' }).click()
    await expect(page.getByText('Lesson saved')).toBeVisible()

    await page.goto(`/learn/${course.id}/${first.id}`)
    const article = page.getByTestId('lesson-article')
    await expect(article.getByRole('heading', { name: 'Joins in practice' })).toBeVisible()
    await expect(article.locator('strong')).toHaveText('custom')
    await expect(article).toContainText('<script>window.hacked = 1</script>')
    expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined()
  })
})
