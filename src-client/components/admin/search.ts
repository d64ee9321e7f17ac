// Search params of the admin routes (see src-client/lib/search-params.ts for why they are not zod schemas).
export {
  optionalEnum,
  optionalFlag,
  optionalPage,
  optionalText,
  type SearchOf,
  searchParams,
} from '#client/lib/search-params.ts'
