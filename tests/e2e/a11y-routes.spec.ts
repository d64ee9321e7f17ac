// Every route (route-table.ts) on a phone, a tablet and a desktop: the page the route shows (not the not-found page: a
// seeded row it cannot show fails here), no sideways page scroll at 390, 320 and 768 px, and axe-core
// (WCAG 2.0/2.1/2.2 A and AA rules) finds no critical or serious violation at 390 px and at 1280 px. One page load per
// route; one browser context per kind of visitor.
import type { BrowserContext, Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { axeViolations, expectDialogFits, pageWidth, visit } from './a11y.ts'
import { expect, test } from './fixtures.ts'
import { contextFor, openE2eDatabase, ROUTES, routeUrl, type Seeded, tableGaps, type Visitor } from './route-table.ts'

test('the route table names every route file', () => {
  const { missing, stale } = tableGaps()
  expect(missing, `route files with no entry in tests/e2e/route-table.ts: ${missing.join(', ')}`).toEqual([])
  expect(stale, `entries in tests/e2e/route-table.ts whose route file is gone: ${stale.join(', ')}`).toEqual([])
})

// The check itself: axe runs inside the page (a11y.ts), so this shows it still sees faults, on the page and in a dialog.
test('the axe check finds missing names, alt text and low contrast, and looks inside a dialog alone', async ({
  page,
}) => {
  await page.setContent(
    '<html lang="en"><title>t</title><main><h1>Faults</h1><img src="a.png"><button></button>' +
      '<p style="color:#ccc;background:#fff">faint</p><div role="dialog"><input></div></main></html>',
  )
  const rules = (lines: string[]) => lines.map((line) => line.split(' ')[0])
  expect(rules(await axeViolations(page))).toEqual(['button-name', 'color-contrast', 'image-alt', 'label'])
  expect(rules(await axeViolations(page, '[role="dialog"]'))).toEqual(['label'])
})

for (const as of ['visitor', 'customer', 'staff', 'creator'] satisfies Visitor[]) {
  test.describe(`every ${as} route`, () => {
    let db: Kysely<Database>
    let context: BrowserContext
    let page: Page
    let seeded: Seeded

    test.beforeAll(async ({ browser, baseURL }) => {
      db = openE2eDatabase()
      ;({ context, seeded } = await contextFor(browser, db, as, { baseURL: baseURL!, width: 390, height: 844 }))
      page = await context.newPage()
    })
    test.afterAll(async () => {
      await context?.close()
      await db?.destroy()
    })

    for (const route of ROUTES.filter((entry) => entry.as === as)) {
      // Named by the route file: a seeded id in the URL differs from run to run.
      test(`${route.file} fits a phone and is axe-clean`, async () => {
        // Two axe passes over the page: on the largest (the analytics pages' charts and tables) each took 10–20 s on a
        // loaded 2-core machine, past the default 30 s with the page's own load.
        test.setTimeout(90_000)
        await page.setViewportSize({ width: 390, height: 844 })
        expect(await visit(page, routeUrl(route, seeded)), 'page status').toBe(route.status ?? 200)
        expect(await pageWidth(page), 'page width at 390 px').toBeLessThanOrEqual(390)
        expect(await axeViolations(page), 'axe at 390 px').toEqual([])

        await page.setViewportSize({ width: 320, height: 640 })
        // Polled: a chart follows its box's new width a frame or more after the resize (a ResizeObserver), so a
        // busy machine read the 390 px chart once; an overflow that stays fails all the same.
        await expect.poll(() => pageWidth(page), { message: 'page width at 320 px' }).toBeLessThanOrEqual(320)

        // A tablet held upright (768 px): the header's full navigation once needed 802 px there.
        await page.setViewportSize({ width: 768, height: 1024 })
        await expect.poll(() => pageWidth(page), { message: 'page width at 768 px' }).toBeLessThanOrEqual(768)

        await page.setViewportSize({ width: 1280, height: 900 })
        expect(await axeViolations(page), 'axe at 1280 px').toEqual([])
      })
    }
  })
}

test.describe('dialogs and drawers on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('the course preview and the mobile menu fit the screen and are axe-clean', async ({ page }) => {
    await visit(page, '/')
    await page
      .getByRole('button', { name: /^Preview / })
      .first()
      .click()
    await expectDialogFits(page, { sheet: true })
    await page.keyboard.press('Escape')
    await expect(page.getByRole('dialog')).toBeHidden()
    await page.getByRole('button', { name: 'Open menu' }).click()
    await expectDialogFits(page, { sheet: false })
  })

  test('the admin drawer and the course dialog fit the screen and are axe-clean', async ({ page, login }) => {
    await login({ role: 'admin' })
    await visit(page, '/admin/courses')
    await page.getByRole('button', { name: 'Add New Course' }).click()
    await expectDialogFits(page, { sheet: true })
    await page.keyboard.press('Escape')
    await expect(page.getByRole('dialog')).toBeHidden()
    await page.getByRole('button', { name: 'Open admin menu' }).click()
    await expectDialogFits(page, { sheet: false })
  })
})
