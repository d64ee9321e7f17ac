// Malformed inputs for the fuzz tests: a plausible valid input read off a procedure's zod schema, then the same
// input with one leaf (or the whole input) replaced by something hostile. Valid neighbours matter: a NUL byte
// only reaches the database when every other field passes validation.
import { randomUUID } from 'node:crypto'
import type { z } from 'zod'

type Schema = z.core.$ZodType
type Path = (string | number)[]

const STRING_CANDIDATES = () => ['fuzz-value-123', '12.34', '1:05', 'fuzz@example.test', randomUUID(), 'Fuzz Name']
const NUMBER_CANDIDATES = [1, 8, 0, 2]

function def(schema: Schema): { type: string } & Record<string, unknown> {
  return schema._zod.def as unknown as { type: string } & Record<string, unknown>
}

function parses(schema: Schema, value: unknown): boolean {
  return (schema as unknown as z.ZodType).safeParse(value).success
}

/** One or more valid-looking values for a schema (one per union option), or [] when none could be found. */
export function validValues(schema: Schema): unknown[] {
  const d = def(schema)
  switch (d.type) {
    case 'string':
      return STRING_CANDIDATES()
        .filter((value) => parses(schema, value))
        .slice(0, 1)
    case 'number':
      return NUMBER_CANDIDATES.filter((value) => parses(schema, value)).slice(0, 1)
    case 'boolean':
      return [true]
    case 'literal':
      return [(d.values as unknown[])[0]]
    case 'enum':
      return [Object.values(d.entries as Record<string, unknown>)[0]]
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
      return validValues(d.innerType as Schema)
    case 'pipe': {
      const candidates = [...validValues(d.in as Schema), ...STRING_CANDIDATES(), ...NUMBER_CANDIDATES]
      return candidates.filter((value) => parses(schema, value)).slice(0, 1)
    }
    case 'union':
      return (d.options as Schema[]).flatMap((option) => validValues(option))
    case 'array': {
      const element = validValues(d.element as Schema)[0]
      return [element === undefined ? [] : [element]]
    }
    case 'object': {
      const value: Record<string, unknown> = {}
      for (const [key, field] of Object.entries(d.shape as Record<string, Schema>)) {
        const fieldValue = validValues(field)[0]
        if (fieldValue !== undefined) value[key] = fieldValue
      }
      return [value]
    }
    default:
      return [undefined]
  }
}

/** Paths to every leaf (string, number, boolean, null) of a JSON value. */
export function leafPaths(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => leafPaths(item, [...path, index]))
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => leafPaths(item, [...path, key]))
  }
  return [path]
}

/** The value at a leaf path. */
export function leafAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((at, key) => (at as Record<string | number, unknown>)[key], value)
}

export function withLeaf(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement
  const [head, ...rest] = path
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>
  copy[head as string | number] = withLeaf(copy[head as string | number], rest, replacement)
  return copy
}

/** Values that replace one leaf: NUL bytes, huge and odd strings, out-of-range numbers, wrong types. */
function hostileLeaves(hugeLength: number): unknown[] {
  return [...hostileStrings(hugeLength), ...HOSTILE_NUMBERS, ...OTHER_TYPES]
}

function hostileStrings(hugeLength: number): string[] {
  return [
    'a\u0000b',
    '\u0000',
    'x'.repeat(hugeLength),
    '\ud800',
    '%00',
    "'; drop table users; --",
    '\u202e',
    '',
    ' ',
    '1e400',
  ]
}
const HOSTILE_NUMBERS = [-1, 0, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, 1.5]
const OTHER_TYPES = [null, true, {}, [], { nested: { deeper: [1] } }]

/**
 * The hostile values for one leaf whose valid value is `current`: every hostile value of its own type (they can pass
 * the schema's type check and reach its rules, a transform or the database), and of the other types only a few: a
 * value of the wrong type is refused at the type check, before any rule, so seven wrong-type numbers in a string field
 * try the same path seven times (that repetition was a third of the fuzz's requests).
 */
export function hostileLeavesFor(current: unknown, hugeLength: number): unknown[] {
  const strings = hostileStrings(hugeLength)
  if (typeof current === 'string') return [...strings, -1, 1e308, ...OTHER_TYPES]
  // A number field may coerce or parse text: a NUL, a huge one and a number too large for a double.
  if (typeof current === 'number')
    return [...HOSTILE_NUMBERS, 'a\u0000b', 'x'.repeat(hugeLength), '1e400', ...OTHER_TYPES]
  return hostileLeaves(hugeLength)
}

/** Replacements for the whole input, including shapes no schema expects. */
export function hostileWholeInputs(): unknown[] {
  const manyKeys = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i]))
  let deep: unknown = 1
  for (let i = 0; i < 2000; i++) deep = [deep]
  return [null, 0, 'a\u0000b', [], {}, true, manyKeys, deep, { 'a\u0000': 1 }, JSON.parse('{"__proto__":{"x":1}}')]
}

/** Every input to try for a procedure: each valid base, each base with one hostile leaf, hostile wholes. */
export function malformedInputs(schema: Schema | undefined, hugeLength: number): unknown[] {
  const { bases, mutated, wholes } = malformedInputSets(schema, hugeLength)
  return [undefined, ...bases, ...mutated, ...wholes]
}

/**
 * The same inputs in three sets: the valid bases (does a caller get past the procedure's access check?), the bases
 * with one hostile leaf each (every leaf path × its hostile leaves, `hostileLeavesFor`) and the hostile wholes.
 */
export function malformedInputSets(
  schema: Schema | undefined,
  hugeLength: number,
): { bases: unknown[]; mutated: unknown[]; wholes: unknown[] } {
  const wholes = hostileWholeInputs()
  if (!schema) return { bases: [], mutated: [], wholes }
  const bases = validValues(schema).filter((value) => value !== undefined)
  const mutated = bases.flatMap((base) =>
    leafPaths(base).flatMap((path) =>
      hostileLeavesFor(leafAt(base, path), hugeLength).map((leaf) => withLeaf(base, path, leaf)),
    ),
  )
  return { bases, mutated, wholes }
}
