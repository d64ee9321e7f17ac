// SIGTERM/SIGINT for the server and the worker: run the stop steps in order, then exit; a hung step is cut off.
import type { FastifyBaseLogger } from 'fastify'

const FORCE_EXIT_MS = 10_000

/** `name` names the process in the log ('worker'); the web server's lines stay plain. */
export function stopOnSignals(log: FastifyBaseLogger, steps: Array<() => Promise<unknown>>, name = '') {
  const prefix = name ? `${name} ` : ''
  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    log.info({ signal }, `${prefix}shutting down`)
    setTimeout(() => process.exit(1), FORCE_EXIT_MS).unref()
    try {
      for (const step of steps) await step()
      process.exit(0)
    } catch (error) {
      log.error({ err: error }, `error during ${prefix}shutdown`)
      process.exit(1)
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}
