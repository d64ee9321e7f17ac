// Every route of the route table (tests/e2e/route-table.ts), full page at 390 px and at 1280 px, into
// screenshots/<width>/<route>.png: a minute's review of every layout. Run with `npm run screenshots`.
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { test } from '@playwright/test'
import { visit } from '../e2e/a11y.ts'
import { contextFor, openE2eDatabase, ROUTES, routeUrl, type Visitor } from '../e2e/route-table.ts'

const OUT = path.resolve('screenshots')
const WIDTHS = [390, 1280]

/** Named by the route file: 'courses/$courseId.tsx' → 'courses-courseId'; '__root.tsx#notFound' → 'root-notFound'. */
const fileName = (file: string) =>
  file
    .replace(/\.tsx?/, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')

for (const as of ['visitor', 'customer', 'staff', 'creator'] satisfies Visitor[]) {
  test(`screenshots of every ${as} route`, async ({ browser, baseURL }) => {
    test.setTimeout(ROUTES.length * 20_000)
    const db = openE2eDatabase()
    // Reduced motion: nothing mid-transition in a picture.
    const { context, seeded } = await contextFor(browser, db, as, { baseURL: baseURL!, width: 390, height: 844 })
    const page = await context.newPage()
    await page.emulateMedia({ reducedMotion: 'reduce' })
    for (const width of WIDTHS) mkdirSync(path.join(OUT, String(width)), { recursive: true })
    for (const route of ROUTES.filter((entry) => entry.as === as)) {
      const url = routeUrl(route, seeded)
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: width < 640 ? 844 : 900 })
        await visit(page, url)
        await page.screenshot({ path: path.join(OUT, String(width), `${fileName(route.file)}.png`), fullPage: true })
      }
    }
    await context.close()
    await db.destroy()
  })
}
