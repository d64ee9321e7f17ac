// Hot queries as named (prepared) statements on PostgreSQL (decision 0030). A query whose SQL is registered here is
// sent with a statement name: node-postgres parses it once per connection and afterwards sends only Bind/Execute,
// so PostgreSQL neither receives nor parses the text again. The compiled hot queries (compiled-query.ts) register
// theirs; every other statement goes as before. PGlite does not use this (it has no wire protocol here).
import pg from 'pg'

/** Distinct statements kept as prepared at most (each connection holds its own copy in PostgreSQL). */
const MAX_PREPARED = 1000
const names = new Map<string, string>()

/** Marks a statement's SQL as worth preparing (idempotent; ignored past MAX_PREPARED distinct statements). */
export function prepareStatement(text: string): void {
  if (!names.has(text) && names.size < MAX_PREPARED) names.set(text, `hot_${names.size + 1}`)
}

/** The statement name a registered SQL text is sent under (tests and the bench read it). */
export function statementName(text: string): string | undefined {
  return names.get(text)
}

/** node-postgres's error when a query's answer did not come within `query_timeout`. */
const READ_TIMEOUT = 'Query read timeout'

/**
 * A pg client that sends registered statements by name (Kysely calls `query(text, values)`), and that gives up its
 * connection when an answer never came (`query_timeout`): node-postgres fails the query but keeps the connection,
 * whose unanswered query then holds every later one, so the pool would hand out a client that never answers again
 * (a database frozen behind a network partition). Ended, it leaves the pool and a new connection replaces it.
 */
export class PreparingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query overloads (config, callbacks, cursors) pass through as they are
  override query(first: any, ...rest: any[]): any {
    const name = typeof first === 'string' && Array.isArray(rest[0]) ? names.get(first) : undefined
    const result = name
      ? super.query({ name, text: first, values: rest[0] }, ...rest.slice(1))
      : super.query(first, ...rest)
    if (!(result instanceof Promise)) return result
    return result.catch((error: unknown) => {
      // end() marks the client as ending at once (the pool then drops it on release) and, with its query still
      // unanswered, destroys the socket.
      if (error instanceof Error && error.message === READ_TIMEOUT) this.end().catch(() => {})
      throw error
    })
  }
}
