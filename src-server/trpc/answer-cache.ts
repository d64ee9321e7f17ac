// The catalogue's hottest public read (catalog.search), answered from the serialised answer held with the catalogue
// snapshot (decision 0071). The answer is a function of the input and the catalogue alone (courses, categories and
// the tables their triggers keep), whoever asks, and catalog_version moves with every change to those: so the bytes
// sent for an input are kept until the version moves, and a repeated call costs the version read, the input's
// check and a lookup instead of the page's queries, the output's check and JSON.stringify. The input is still
// checked (NUL bytes, the procedure's own schema) and the key is the parsed input, so a refused input never hits and
// two spellings of one query share an answer. Anything unusual (a refused input, a failed version read) gives null
// and the call goes tRPC's whole way, with its errors and hooks.
import { catalogueQuerySchema } from '../../src-shared/schemas/catalog.ts'
import { catalogueSnapshot } from '../catalog/catalogue-snapshot.ts'
import type { DB } from '../kernel/db.ts'
import { findNulPath } from './nul-input.ts'

/** Distinct inputs kept per snapshot (a page of cards is ~7 kB): first come, kept; later ones are computed each time. */
export const MAX_CACHED_ANSWERS = 2000

const CACHED_INPUTS = { 'catalog.search': catalogueQuerySchema } as const

export interface AnswerSlot {
  /** The answer's body as sent before for this call, if any. */
  body: string | undefined
  /** Keeps a successful answer's body for the same call until the catalogue changes. */
  store(body: string): void
}

/** Whether answers of this procedure may come from the cache (the tRPC handler asks before building anything). */
export function isCachedProcedure(path: string): boolean {
  return Object.hasOwn(CACHED_INPUTS, path)
}

/** The cache slot of one call, or null: not a cached procedure, an input its procedure refuses, a failed read. */
export async function catalogueAnswerSlot(
  ctx: { db: DB; sessionError?: unknown },
  path: string,
  input: unknown,
): Promise<AnswerSlot | null> {
  if (!isCachedProcedure(path) || ctx.sessionError !== undefined || findNulPath(input) !== null) return null
  const parsed = CACHED_INPUTS[path as keyof typeof CACHED_INPUTS].safeParse(input)
  if (!parsed.success) return null
  let answers: Map<string, string>
  try {
    answers = (await catalogueSnapshot(ctx.db)).answers
  } catch {
    return null // the procedure reads again and reports the failure its own way
  }
  const key = `${path} ${JSON.stringify(parsed.data)}`
  return {
    body: answers.get(key),
    store(body) {
      if (answers.size < MAX_CACHED_ANSWERS) answers.set(key, body)
    },
  }
}
