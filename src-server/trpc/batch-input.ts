// The input of call 0 of a tRPC batch GET, read from its raw `input` query parameter (`{"0": …}`), by the fast path
// (trpc/fastify-handler.ts) and the kept answers' lookup (trpc/answer-cache.ts): one reading of the batch for both.
import { isObject } from '@trpc/server/unstable-core-do-not-import'

/** Whether a batch's inputs hold nothing but call 0's (no array of keys made: issue 37). */
function onlyFirstCall(inputs: Record<string, unknown>): boolean {
  for (const key in inputs) if (key !== '0') return false
  return true
}

/** Call 0's input as sent (before any transformer), or null when the text is not JSON or the batch has other calls. */
export function firstCallInput(rawInput: string | undefined): { input: unknown } | null {
  let inputs: unknown
  try {
    inputs = rawInput === undefined ? {} : JSON.parse(rawInput)
  } catch {
    return null
  }
  return isObject(inputs) && onlyFirstCall(inputs) ? { input: inputs[0] } : null
}
