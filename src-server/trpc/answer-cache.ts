// The catalogue's hottest public reads (catalog.search, catalog.course), answered from the serialised answer held
// with the catalogue snapshot (decisions 0071, 0072). Each answer is a function of the input and the catalogue alone
// (courses, categories and the tables their triggers keep; for a course page also its instructor, sections, lessons
// and team), whoever asks, and catalog_version moves with every change to those: so the bytes sent for an input are
// kept until the version moves, and a repeated call costs the version read, the input's check and a lookup instead
// of the page's queries, the output's check and JSON.stringify. The input is still checked (NUL bytes, the
// procedure's own schema) and the key is the parsed input, so a refused input never hits and two spellings of one
// query share an answer. Anything unusual (a refused input, a failed version read) gives null and the call goes
// tRPC's whole way, with its errors and hooks.
import type { ZodType } from 'zod'
import { catalogueQuerySchema, courseDetailInput } from '../../src-shared/schemas/catalog.ts'
import { type CatalogueSnapshot, catalogueSnapshot } from '../catalog/catalogue-snapshot.ts'
import type { DB } from '../kernel/db.ts'
import { firstCallInput } from './batch-input.ts'
import { keepCompressedCopies } from './kept-compression.ts'
import { findNulPath } from './nul-input.ts'

/** Distinct inputs kept per snapshot (a page of cards is ~7 kB): first come, kept; later ones are computed each time. */
export const MAX_CACHED_ANSWERS = 2000
/**
 * Course pages kept per snapshot (~2–10 kB each with the outline). Any of a million courses may be asked, so the
 * oldest kept page gives way to a new one (a popular course is soon back); a not-found answer is never kept, so
 * made-up ids cannot push the real pages out.
 */
export const MAX_CACHED_COURSE_PAGES = 2000

interface Policy {
  input: ZodType
  answers: (snapshot: CatalogueSnapshot) => Map<string, Buffer>
  limit: number
  /** When full: keep what is held (false) or drop the oldest for the new answer (true). */
  replaceOldest: boolean
  keeps: (data: unknown) => boolean
}

const CACHED: Record<string, Policy> = {
  'catalog.search': {
    input: catalogueQuerySchema,
    answers: (snapshot) => snapshot.answers,
    limit: MAX_CACHED_ANSWERS,
    replaceOldest: false,
    keeps: () => true,
  },
  'catalog.course': {
    input: courseDetailInput,
    answers: (snapshot) => snapshot.coursePages,
    limit: MAX_CACHED_COURSE_PAGES,
    replaceOldest: true,
    keeps: (data) => data !== null,
  },
}

/**
 * The cache slot of one call. The body is kept as the bytes sent (UTF-8): a hit is written to the socket as it is, with
 * no encoding and no copy joining it to the headers (issue 37).
 */
export class AnswerSlot {
  constructor(
    /** The answer's body as sent before for this call, if any. */
    readonly body: Buffer | undefined,
    private readonly answers: Map<string, Buffer>,
    private readonly key: string,
    private readonly policy: Policy,
  ) {}

  /** Keeps a successful answer's body (and its data, before serialisation) for the same call until the catalogue changes. */
  store(body: Buffer, data: unknown): void {
    const { answers, policy } = this
    if (!policy.keeps(data)) return
    if (answers.size >= policy.limit) {
      if (!policy.replaceOldest) return
      answers.delete(answers.keys().next().value as string)
    }
    answers.set(this.key, body)
    keepCompressedCopies(body) // a browser's gzip or br copy is then made once, not on every hit
  }
}

/** Whether answers of this procedure may come from the cache (the tRPC handler asks before building anything). */
export function isCachedProcedure(path: string): boolean {
  return Object.hasOwn(CACHED, path)
}

/** The key of a kept answer: the path and the input as its procedure parsed it; null for an input it refuses. */
function answerKey(path: string, policy: Policy, input: unknown): string | null {
  if (findNulPath(input) !== null) return null
  const parsed = policy.input.safeParse(input)
  return parsed.success ? `${path} ${JSON.stringify(parsed.data)}` : null
}

/** The cache slot of one call, or null: not a cached procedure, an input its procedure refuses, a failed read. */
export async function catalogueAnswerSlot(
  ctx: { db: DB; sessionError?: unknown },
  path: string,
  input: unknown,
): Promise<AnswerSlot | null> {
  if (!isCachedProcedure(path) || ctx.sessionError !== undefined) return null
  const policy = CACHED[path]!
  const key = answerKey(path, policy, input)
  if (key === null) return null
  let answers: Map<string, Buffer>
  try {
    answers = policy.answers(await catalogueSnapshot(ctx.db))
  } catch {
    return null // the procedure reads again and reports the failure its own way
  }
  return new AnswerSlot(answers.get(key), answers, key, policy)
}

/** Raw inputs up to this long have their key remembered (a catalogue query's input is a few dozen characters). */
const REMEMBERED_INPUT_LENGTH = 512
const REMEMBERED_INPUTS = 2000
/** Per procedure, its `input` query parameters as sent → the answer's key, or null for one that takes no kept path. */
const keysOfRawInputs = new Map<string, Map<string, string | null>>(
  Object.keys(CACHED).map((path) => [path, new Map()]),
)

/**
 * The key of a batch-of-one call's kept answer from its raw `input` query parameter, or null when the call cannot take
 * the kept path (not one call 0, not JSON, an input its procedure refuses). The same text always parses and checks to
 * the same result, so the result is remembered per text: a repeated call skips the JSON parse, the NUL check, the zod
 * check and the key's serialisation (issue 37), and every distinct text is still checked once.
 */
function keyOfRawInput(path: string, policy: Policy, rawInput: string | undefined): string | null {
  const known = keysOfRawInputs.get(path)
  if (known === undefined || rawInput === undefined || rawInput.length > REMEMBERED_INPUT_LENGTH) {
    return rawKey(path, policy, rawInput)
  }
  let key = known.get(rawInput)
  if (key === undefined) {
    key = rawKey(path, policy, rawInput)
    if (known.size >= REMEMBERED_INPUTS) known.clear()
    known.set(rawInput, key)
  }
  return key
}

function rawKey(path: string, policy: Policy, rawInput: string | undefined): string | null {
  const call = firstCallInput(rawInput)
  return call ? answerKey(path, policy, call.input) : null
}

/**
 * The kept answer of a batch-of-one GET for a caller without a session (no context needed: the answer is the same
 * whoever asks, and such a caller has no session to resolve or refresh): undefined at once when the call is not one
 * whose answers are kept, else a promise of the bytes, undefined when none are kept yet or the version read failed. The
 * tRPC handler then takes its usual way, which keeps the answer or reports the failure.
 */
export function keptCatalogueAnswer(
  db: DB,
  path: string,
  rawInput: string | undefined,
): Promise<Buffer | undefined> | undefined {
  // A repeated `input` parameter comes as a list: the usual way answers it.
  if (!isCachedProcedure(path) || (rawInput !== undefined && typeof rawInput !== 'string')) return undefined
  const policy = CACHED[path]!
  const key = keyOfRawInput(path, policy, rawInput)
  if (key === null) return undefined
  return catalogueSnapshot(db).then(
    (snapshot) => policy.answers(snapshot).get(key),
    () => undefined, // the procedure reads again and reports the failure its own way
  )
}
