// Vitest runs the test files of a worker in one module registry (vitest.config.ts: `isolate: false`), so what a
// file sets in a server module's own state would reach the next file: put it back after each file.
import { afterAll } from 'vitest'
import { resetClock, setDueWorkRunner } from '../../src-server/kernel/clock.ts'
import { resetSeller } from '../../src-server/orders/seller.ts'

afterAll(() => {
  resetClock()
  setDueWorkRunner(null)
  resetSeller()
})
