// Search-param validation for routes, without zod: route definitions (validateSearch) load with the first page, and
// even zod/mini brought ~14 kB gzipped (its core) into it. Each field is lenient as before: a missing, bad or
// tampered value becomes undefined (the route's default) rather than an error page.
// The server validates what it receives with its own zod schemas.

/** One search param: its value when valid, else undefined. */
export type SearchField<T> = (value: unknown) => T | undefined
type Shape = Record<string, SearchField<unknown>>
type Parsed<S extends Shape> = { [K in keyof S]?: S[K] extends SearchField<infer T> ? T : never }

/** A route's validateSearch: a function TanStack Router calls with the parsed query string. */
export type SearchSchema<S extends Shape> = (input: Record<string, unknown>) => Parsed<S>
/** The validated search of a schema. */
export type SearchOf<T extends (input: Record<string, unknown>) => object> = ReturnType<T>

const shapes = new WeakMap<SearchSchema<Shape>, Shape>()

export function searchParams<S extends Shape>(shape: S): SearchSchema<S> {
  const parse: SearchSchema<S> = (input) => {
    const output: Record<string, unknown> = {}
    // A bad value is kept as undefined, not left out: the router merges the raw params under what this returns,
    // so only an explicit undefined replaces a tampered value.
    for (const key of Object.keys(shape)) if (Object.hasOwn(input, key)) output[key] = shape[key]!(input[key])
    return output as Parsed<S>
  }
  shapes.set(parse as SearchSchema<Shape>, shape)
  return parse
}

/** The same schema without some of its params. */
export function omitParams<S extends Shape, K extends keyof S & string>(
  schema: SearchSchema<S>,
  keys: readonly K[],
): SearchSchema<Omit<S, K>> {
  const shape = shapes.get(schema as SearchSchema<Shape>) ?? {}
  return searchParams(
    Object.fromEntries(Object.entries(shape).filter(([key]) => !keys.includes(key as K))) as Omit<S, K>,
  )
}

/** Text (trimmed), at least 1 and at most `max` characters. The router turns ?x=12 into a number: not text. */
export function text(max: number, rule?: (value: string) => string | undefined): SearchField<string> {
  return (value) => {
    if (typeof value !== 'string') return undefined
    const trimmed = value.trim()
    if (trimmed.length > max) return undefined
    return rule ? rule(trimmed) : trimmed
  }
}

/** An optional text parameter such as ?redirect= or ?token=. */
export const optionalText: SearchField<string> = (value) => {
  const trimmed = text(2000)(value)
  return trimmed ? trimmed : undefined
}

/** An optional parameter limited to a fixed set of values. */
export function optionalEnum<const T extends readonly [string, ...string[]]>(values: T): SearchField<T[number]> {
  return (value) => (typeof value === 'string' && values.includes(value) ? (value as T[number]) : undefined)
}

/** A whole number from min to max: a number the router parsed, or (`coerce`) anything Number() reads as one. */
export function wholeNumber(min: number, max: number, options: { coerce?: boolean } = {}): SearchField<number> {
  return (value) => {
    const number = options.coerce ? Number(value) : value
    return typeof number === 'number' && Number.isInteger(number) && number >= min && number <= max ? number : undefined
  }
}

/** ?page=2 → 2 (the router parses numbers); anything else → undefined (page 1). */
export const optionalPage = wholeNumber(1, 10_000)

/** ?new=true → true (the router parses booleans). */
export const optionalFlag: SearchField<boolean> = (value) => (typeof value === 'boolean' ? value : undefined)
