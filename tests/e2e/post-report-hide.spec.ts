// Images in lesson posts follow the post (issue 33, decision 0052): a learner attaches an image to a question with
// the file input and posts it; a second learner sees it and reports it; staff open Reported posts from the admin
// navigation and hide it; the second learner then sees neither the post nor its image (its URL answers 404). A file
// picked before the questions' script has arrived is attached once it does.
import { createUser } from '../support/factories.ts'
import { buyerOfCourse, lessonsOf } from '../support/learning.ts'
import { expect, signInAs, test } from './fixtures.ts'

const COURSE = 'modern-react-typescript'
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

test('an image attached to a question is hidden with it once staff hide the reported post', async ({
  page,
  db,
  login,
  baseURL,
}) => {
  const title = `Why this diagram ${Date.now()}?`
  const asker = await login({ firstName: 'Pia', lastName: 'Poster' })
  await buyerOfCourse(db, COURSE, asker)
  const lesson = (await lessonsOf(db, COURSE)).find((l) => !l.is_preview)
  await page.goto(`/learn/${COURSE}/${lesson?.id}`)
  const questions = page.getByRole('region', { name: 'Questions' })
  await questions.getByLabel('Your question').fill(title)
  await questions.getByLabel('Details (Markdown)').fill('See the picture:')
  await questions.getByLabel('Attach image', { exact: true }).setInputFiles({
    name: 'diagram.png',
    mimeType: 'image/png',
    buffer: PNG,
  })
  await expect(questions.getByLabel('Details (Markdown)')).toHaveValue(
    /^See the picture:\n!\[image\]\(\/api\/learn\/post-images\/[0-9a-f-]{36}\)\n$/,
  )
  await questions.getByRole('button', { name: 'Post question' }).click()
  const item = questions.getByTestId('question').filter({ hasText: title })
  const image = item.locator('img[src^="/api/learn/post-images/"]')
  await expect(image).toBeVisible()
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1)
  const src = (await image.getAttribute('src')) as string

  const reader = await createUser(db, { firstName: 'Rex', lastName: 'Reader' })
  await buyerOfCourse(db, COURSE, reader)
  await page.context().clearCookies()
  await signInAs(page, baseURL as string, db, reader)
  await page.reload()
  expect((await page.request.get(src)).status()).toBe(200)
  await page.getByTestId('question').filter({ hasText: title }).getByRole('button', { name: 'Report' }).click()
  await expect(page.getByText('Reported. Thank you.')).toBeVisible()

  const staff = await createUser(db, { role: 'editor' })
  await page.context().clearCookies()
  await signInAs(page, baseURL as string, db, staff)
  // Editors find the queue in the admin navigation.
  await page.goto('/admin')
  await page
    .getByRole('complementary', { name: 'Admin navigation' })
    .getByRole('link', { name: 'Reported posts' })
    .click()
  await expect(page).toHaveURL(/\/admin\/reported-posts$/)
  await page.getByRole('button', { name: `Hide the question “${title}”` }).click()
  await expect(page.getByRole('button', { name: `Restore the question “${title}”` })).toBeVisible()

  await page.context().clearCookies()
  await signInAs(page, baseURL as string, db, reader)
  await page.goto(`/learn/${COURSE}/${lesson?.id}`)
  const list = page.getByRole('region', { name: 'Questions' })
  await expect(list.getByText('Loading questions…')).toHaveCount(0)
  await expect(list.getByTestId('question').filter({ hasText: title })).toHaveCount(0)
  expect((await page.request.get(src)).status()).toBe(404)
})

test('an image picked before the questions’ code has arrived is attached once it does', async ({ page, db, login }) => {
  // The questions are on the server-rendered page before their script runs; a file picked then had no handler.
  let letThrough = () => {}
  const picked = new Promise<void>((resolve) => {
    letThrough = resolve
  })
  await page.route(/\/assets\/LessonQuestions-[^/]+\.js$/, async (route) => {
    await picked
    await route.continue()
  })
  const learner = await login({ firstName: 'Eli', lastName: 'Early' })
  await buyerOfCourse(db, COURSE, learner)
  const lesson = (await lessonsOf(db, COURSE)).find((l) => !l.is_preview)
  await page.goto(`/learn/${COURSE}/${lesson?.id}`)
  const questions = page.getByRole('region', { name: 'Questions' })
  await questions.getByLabel('Attach image', { exact: true }).setInputFiles({
    name: 'early.png',
    mimeType: 'image/png',
    buffer: PNG,
  })
  letThrough()
  await expect(questions.getByLabel('Details (Markdown)')).toHaveValue(
    /^!\[image\]\(\/api\/learn\/post-images\/[0-9a-f-]{36}\)\n$/,
  )
})
