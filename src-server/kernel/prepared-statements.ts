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

/** A pg client that sends registered statements by name (Kysely calls `query(text, values)`). */
export class PreparingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query overloads (config, callbacks, cursors) pass through as they are
  override query(first: any, ...rest: any[]): any {
    const name = typeof first === 'string' && Array.isArray(rest[0]) ? names.get(first) : undefined
    if (name) return super.query({ name, text: first, values: rest[0] }, ...rest.slice(1))
    return super.query(first, ...rest)
  }
}
