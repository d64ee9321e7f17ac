// Search params of the admin routes (see src-client/lib/search-params.ts for why they are not zod schemas).
export * from '#client/lib/search-params.ts'

/** The search of another page of a list, its filters kept; the first page is the URL without ?page. */
export const atPage =
  (page: number) =>
  <S extends { page?: number }>(prev: S): S => ({ ...prev, page: page === 1 ? undefined : page })
