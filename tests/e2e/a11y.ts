// Page checks shared by the accessibility tests and the screenshot script.
import { expect, type Page } from '@playwright/test'
import axe from 'axe-core'

// The WCAG 2.2 A/AA rules, plus axe's best practices so the same pass also checks the page's structure.
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']
// Structure rules that fail at any impact: one main, one h1, no skipped heading level, content in landmarks.
const STRUCTURE_RULES = new Set([
  'heading-order',
  'page-has-heading-one',
  'landmark-one-main',
  'landmark-no-duplicate-main',
  'landmark-unique',
  'region',
])

/** Opens a URL and waits until its page heading shows and nothing is loading; gives the page's HTTP status. */
export async function visit(page: Page, url: string): Promise<number | undefined> {
  const response = await page.goto(url)
  await expect(page.locator('h1').first()).toBeVisible()
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
  return response?.status()
}

export async function pageWidth(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth)
}

/**
 * What fails the build, one line each (rule, impact, first offending elements): every critical or serious
 * violation of a WCAG rule, and any violation of the structure rules.
 *
 * axe-core runs in the page itself, loaded once per document. @axe-core/playwright's `analyze()` loaded it into every
 * frame and opened a second page to finish each run: 1.5–3 s a pass where this takes 0.1–0.5 s (the a11y routes test
 * makes two passes over each of 105 routes). The content of an iframe (a map, a video provider's player) is theirs
 * and is not checked; the iframe element itself is (its title).
 */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source)
  // A dialog alone: the page behind it is inert, and page-level rules (one main, one h1) do not apply.
  const violations = await page.evaluate(
    ({ include, tags, structureRules }) => {
      const options: axe.RunOptions = {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
        iframes: false,
        ...(include ? { rules: Object.fromEntries(structureRules.map((id) => [id, { enabled: false }])) } : {}),
      }
      const { axe: inPage } = window as unknown as { axe: typeof axe }
      return inPage.run(include ? { include: [include] } : document, options).then((results) => results.violations)
    },
    { include, tags: TAGS, structureRules: [...STRUCTURE_RULES] },
  )
  return violations
    .filter((violation) => {
      if (STRUCTURE_RULES.has(violation.id)) return true
      const wcag = violation.tags.some((tag) => tag.startsWith('wcag'))
      return wcag && (violation.impact === 'critical' || violation.impact === 'serious')
    })
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .slice(0, 4)
          .map(
            (node) =>
              `${node.target.join(' ')}${node.failureSummary ? ` [${node.failureSummary.replace(/\s+/g, ' ')}]` : ''}`,
          )
          .join('; ')}`,
    )
}

/** The headings as a screen reader lists them ("h2 Featured Courses"), for a test's failure message. */
export async function headingOutline(page: Page): Promise<string[]> {
  return page
    .locator('h1, h2, h3, h4, h5, h6')
    .evaluateAll((headings) => headings.map((h) => `${h.tagName.toLowerCase()} ${(h.textContent ?? '').trim()}`))
}

/** The open dialog (or drawer) lies within the viewport and does not scroll sideways; a sheet fills its width. */
export async function expectDialogFits(page: Page, { sheet }: { sheet: boolean }) {
  const dialog = page.getByRole('dialog')
  await expect(dialog).toBeVisible()
  const viewport = page.viewportSize()!
  const box = (await dialog.boundingBox())!
  expect(box.x, 'dialog left edge').toBeGreaterThanOrEqual(0)
  expect(box.x + box.width, 'dialog right edge').toBeLessThanOrEqual(viewport.width + 0.5)
  if (sheet) expect(Math.round(box.width), 'a full-screen sheet').toBe(viewport.width)
  const overflow = await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)
  expect(overflow, 'dialog scrolls sideways').toBeLessThanOrEqual(0)
  expect(await axeViolations(page, '[role="dialog"]'), 'axe in the dialog').toEqual([])
}
