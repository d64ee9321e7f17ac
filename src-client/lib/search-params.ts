// Search-param schemas for routes, in zod/mini: route definitions load with the first page, and the full zod
// would add ~20 kB gzipped to it. A bad or tampered value becomes undefined rather than an error page.
import * as z from 'zod/mini'

export { z }

/** An optional text parameter such as ?redirect= or ?token=. */
export const optionalText = z.catch(
  z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(2000))),
  undefined,
)

/** An optional parameter limited to a fixed set of values. */
export function optionalEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.catch(z.optional(z.enum(values)), undefined)
}
