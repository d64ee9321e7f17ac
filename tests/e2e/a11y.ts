// Page checks shared by the accessibility tests and the screenshot script.
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/** Opens a URL and waits until its page heading shows and nothing is loading. */
export async function visit(page: Page, url: string) {
  await page.goto(url)
  await expect(page.locator('h1').first()).toBeVisible()
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
}

export async function pageWidth(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth)
}

/** The critical and serious violations, one line each (rule, impact, first offending elements). */
export async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()
  return violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
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
