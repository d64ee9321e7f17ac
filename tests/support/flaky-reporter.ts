// A Playwright reporter line for the end of every run: the tests that failed first and passed on their retry
// (CI allows one retry). They count as passed, so without this line a flaky test hides in the scroll-back.
import type { Reporter, TestCase } from '@playwright/test/reporter'

export default class FlakyReporter implements Reporter {
  private readonly flaky = new Set<TestCase>()

  onTestEnd(test: TestCase) {
    if (test.outcome() === 'flaky') this.flaky.add(test)
    else this.flaky.delete(test)
  }

  onEnd() {
    const titles = [...this.flaky].map((test) => test.titlePath().filter(Boolean).join(' › '))
    console.log(titles.length === 0 ? '0 flaky' : `${titles.length} flaky: ${titles.join('; ')}`)
  }

  printsToStdio() {
    return true
  }
}
