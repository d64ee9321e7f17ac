// Search params of the admin routes, in zod/mini (see src-client/lib/search-params.ts for why).
import { z } from '../../lib/search-params.ts'

export { optionalEnum, optionalText, z } from '../../lib/search-params.ts'

/** ?page=2 → 2 (the router parses numbers); anything else → undefined (page 1). */
export const optionalPage = z.catch(z.optional(z.int().check(z.gte(1), z.lte(10_000))), undefined)

export const optionalFlag = z.catch(z.optional(z.boolean()), undefined)
