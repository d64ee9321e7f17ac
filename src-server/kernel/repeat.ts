// A loop that runs a pass of work every interval (the worker's relays onto the job queue).
import type { Log } from './log.ts'

/**
 * Runs `pass` every `intervalMs` until stopped, one at a time (a tick while a pass runs is skipped). A failed pass
 * is logged as `<what>: will retry` and tried again on the next tick. The timer does not keep the process alive;
 * the returned stop function clears it and waits for the pass under way.
 */
export function repeatEvery(
  pass: () => Promise<unknown>,
  options: { log: Log; what: string; intervalMs?: number },
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve()
  let busy = false
  const timer = setInterval(() => {
    if (busy) return
    busy = true
    running = pass()
      .catch((error) => options.log.warn({ err: error }, `${options.what}: will retry`))
      .finally(() => {
        busy = false
      })
  }, options.intervalMs ?? 1000)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}
