// PostgreSQL's answers a change is written to expect (the same from PGlite): a unique index or a foreign key said no.
// Read by their SQLSTATE code, which names the error and never a value.

const UNIQUE_VIOLATION = '23505'
const FOREIGN_KEY_VIOLATION = '23503'

const codeOf = (error: unknown) =>
  typeof error === 'object' && error !== null ? String((error as { code?: unknown }).code) : undefined

/** A unique index refused the row (a duplicate). */
export const isUniqueViolation = (error: unknown): boolean => codeOf(error) === UNIQUE_VIOLATION

/** A foreign key refused the row (what it points at is gone), or a delete (something still points here). */
export const isForeignKeyViolation = (error: unknown): boolean => codeOf(error) === FOREIGN_KEY_VIOLATION
