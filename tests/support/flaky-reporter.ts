// A Playwright reporter line for the end of every run: the tests that failed first and passed on their retry
// (CI allows one retry). They count as passed, so without this line a flaky test hides in the scroll-back.
// It also writes the failed and flaky tests, each with its error's first lines, to .test-logs/playwright-summary.txt:
// `npm test` prints that file last, after Vitest's output, where a log's tail (all CI shows) still has it.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter'

export const PLAYWRIGHT_SUMMARY = path.resolve(import.meta.dirname, '../../.test-logs/playwright-summary.txt')

function title(test: TestCase) {
  return test.titlePath().filter(Boolean).join(' › ')
}

export default class FlakyReporter implements Reporter {
  private readonly flaky = new Set<TestCase>()
  private readonly failed = new Map<TestCase, string>()

  onTestEnd(test: TestCase, result: TestResult) {
    if (test.outcome() === 'flaky') this.flaky.add(test)
    else this.flaky.delete(test)
    if (test.outcome() === 'unexpected') {
      const error = stripVTControlCharacters(result.error?.message ?? result.status)
      this.failed.set(test, error.split('\n').slice(0, 6).join('\n      '))
    } else this.failed.delete(test)
  }

  onEnd() {
    const flaky = [...this.flaky].map(title)
    console.log(flaky.length === 0 ? '0 flaky' : `${flaky.length} flaky: ${flaky.join('; ')}`)
    const lines = [
      `Playwright: ${this.failed.size} failed, ${flaky.length} flaky`,
      ...[...this.failed].map(([test, error]) => `  FAILED ${title(test)}\n      ${error}`),
      ...flaky.map((name) => `  flaky ${name}`),
    ]
    mkdirSync(path.dirname(PLAYWRIGHT_SUMMARY), { recursive: true })
    writeFileSync(PLAYWRIGHT_SUMMARY, `${lines.join('\n')}\n`)
  }

  printsToStdio() {
    return true
  }
}
