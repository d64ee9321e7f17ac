// Ids that come in as text (a URL's path, a cursor) and are compared with uuid columns: Postgres refuses to cast a
// text that is not a uuid and the query fails, so each caller checks the shape first and answers "not found".

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether `text` is a uuid (any version, either case): safe to compare with a uuid column. */
export function isUuid(text: string): boolean {
  return UUID.test(text)
}
