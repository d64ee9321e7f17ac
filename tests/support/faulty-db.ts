// A handle on a test's database whose statements a test can make fail or hold, as a database failing over or a worker
// stuck on a read would: a Kysely plugin over the test's database, given to the job worker as its `db`. The queue
// itself (pg-boss, on its own connection) is untouched, so it fails and expires jobs as it would in production.
import type { KyselyPlugin, OperationNode, QueryId, RootOperationNode } from 'kysely'
import type { DB } from '../../src-server/kernel/db.ts'

/** What a statement does, enough to pick one out. */
export interface Statement {
  kind: 'select' | 'update' | 'insert' | 'delete' | 'other'
  table: string | undefined
  /** The columns a select names. */
  selects: string[]
  /** The values an update sets, by column (plain values only). */
  sets: Record<string, unknown>
  /** Every plain value the statement carries (its parameters). */
  values: unknown[]
}

type Match = (statement: Statement) => boolean

export interface Hold {
  /** Resolves once the statement has run (its result is held from then on). */
  reached: Promise<void>
  release(): void
}

export interface FaultyDatabase {
  db: DB
  /** While true every statement fails as a connection reset by a restarting database would. */
  down: boolean
  /** The next matching statement fails (and the database goes down with it when `thenDown`); resolves when it did. */
  failNext(match: Match, options?: { thenDown?: boolean }): Promise<void>
  /** The next matching statement runs, but the code that sent it gets its result only on release(). */
  holdNext(match: Match): Hold
  /** Resolves when a matching statement's result has come back (to the code that sent it). */
  seen(match: Match): Promise<void>
}

export function connectionReset(): Error {
  return Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })
}

export function faultyDatabase(base: DB): FaultyDatabase {
  const fails: { match: Match; thenDown: boolean; done: () => void }[] = []
  const holds: { match: Match; reached: () => void; released: Promise<void> }[] = []
  const watches: { match: Match; done: () => void }[] = []
  const pending = new WeakMap<QueryId, { statement: Statement; held?: (typeof holds)[number] }>()
  const take = <T extends { match: Match }>(list: T[], statement: Statement) => {
    const index = list.findIndex((entry) => entry.match(statement))
    return index < 0 ? undefined : list.splice(index, 1)[0]
  }
  const faults: FaultyDatabase = {
    db: base,
    down: false,
    failNext(match, options = {}) {
      return new Promise((resolve) => fails.push({ match, thenDown: options.thenDown ?? false, done: resolve }))
    },
    holdNext(match) {
      let release = () => {}
      let reached = () => {}
      const released = new Promise<void>((resolve) => {
        release = resolve
      })
      const reachedPromise = new Promise<void>((resolve) => {
        reached = resolve
      })
      holds.push({ match, reached, released })
      return { reached: reachedPromise, release }
    },
    seen(match) {
      return new Promise((resolve) => watches.push({ match, done: resolve }))
    },
  }
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      if (faults.down) throw connectionReset()
      const statement = describeStatement(node)
      const failure = take(fails, statement)
      if (failure) {
        if (failure.thenDown) faults.down = true
        failure.done()
        throw connectionReset()
      }
      pending.set(queryId, { statement, held: take(holds, statement) })
      return node
    },
    async transformResult({ queryId, result }) {
      const sent = pending.get(queryId)
      if (sent?.held) {
        sent.held.reached()
        await sent.held.released
      }
      if (sent) {
        for (let watch = take(watches, sent.statement); watch; watch = take(watches, sent.statement)) watch.done()
      }
      return result
    },
  }
  faults.db = base.withPlugin(plugin)
  return faults
}

const name = (node: OperationNode | undefined): string | undefined => {
  const table = node as { kind?: string; table?: { identifier?: { name?: string } } } | undefined
  return table?.kind === 'TableNode' ? table.table?.identifier?.name : undefined
}

const column = (node: unknown): string | undefined => {
  const reference = node as { kind?: string; column?: { column?: { name?: string } } }
  return reference?.kind === 'ReferenceNode' || reference?.kind === 'ColumnNode'
    ? (reference.column?.column?.name ?? (reference as { column?: { name?: string } }).column?.name)
    : undefined
}

/** The plain values anywhere in a statement's tree. */
function valuesOf(node: unknown, into: unknown[] = []): unknown[] {
  if (Array.isArray(node)) for (const item of node) valuesOf(item, into)
  else if (node && typeof node === 'object') {
    const entry = node as { kind?: string; value?: unknown }
    if (entry.kind === 'ValueNode') into.push(entry.value)
    else for (const child of Object.values(node)) valuesOf(child, into)
  }
  return into
}

export function describeStatement(node: RootOperationNode): Statement {
  return { ...describeParts(node), values: valuesOf(node) }
}

function describeParts(node: RootOperationNode): Omit<Statement, 'values'> {
  const any = node as unknown as Record<string, unknown>
  switch (node.kind) {
    case 'SelectQueryNode': {
      const froms = (any.from as { froms?: OperationNode[] } | undefined)?.froms ?? []
      const selections = (any.selections as { selection: unknown }[] | undefined) ?? []
      return {
        kind: 'select',
        table: name(froms[0]),
        selects: selections.map((selection) => column(selection.selection)).filter((c): c is string => !!c),
        sets: {},
      }
    }
    case 'UpdateQueryNode': {
      const updates = (any.updates as { column: { column: { name: string } }; value: { value?: unknown } }[]) ?? []
      const sets = Object.fromEntries(updates.map((update) => [update.column.column.name, update.value?.value]))
      return { kind: 'update', table: name(any.table as OperationNode), selects: [], sets }
    }
    case 'InsertQueryNode':
      return { kind: 'insert', table: name(any.into as OperationNode), selects: [], sets: {} }
    case 'DeleteQueryNode':
      return { kind: 'delete', table: undefined, selects: [], sets: {} }
    default:
      return { kind: 'other', table: undefined, selects: [], sets: {} }
  }
}
