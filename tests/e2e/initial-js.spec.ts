// The home page's first load stays under its JavaScript budget (issue 17), measured on the build this suite serves;
// and the page fetches no zod and no admin, account, player or checkout code before it is used.
import { readFileSync } from 'node:fs'
import { INITIAL_JS_BUDGET_KB, initialJs } from '../../scripts/report-initial-js.ts'
import { expect, test } from './fixtures.ts'

test('the home page needs under its budget of JavaScript (gzipped), none of it zod', async ({ page }) => {
  const { chunks, totalBytes } = initialJs('dist/client')
  expect(totalBytes / 1024).toBeLessThan(INITIAL_JS_BUDGET_KB)
  for (const { file } of chunks) {
    const code = readFileSync(`dist/client/assets/${file}`, 'utf8')
    expect(code, `${file} carries zod`).not.toMatch(/\$ZodType|ZodError/)
  }

  // What the browser actually fetches on a first visit, before any interaction.
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
  })
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(scripts.length).toBeGreaterThan(0)
  // Chunks are named after their first module: the admin area, the account pages, the player, checkout.
  const notYet = /^\/assets\/(_staff|AdminDialog|account|_courseId\._lessonId|LessonContent|payment)[-.]/
  expect(scripts.filter((script) => notYet.test(script))).toEqual([])
})
