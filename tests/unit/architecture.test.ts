// The server's layout rules (docs/decisions/0011-server-layout.md), checked by reading the source tree: who may
// use tRPC, Stripe and the orders tables, and that server folders depend on each other one way only.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { type FolderGraph, findFolderCycles, importsOf } from '../support/import-graph.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const SERVER = path.join(ROOT, 'src-server')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/')
const read = (file: string) => readFileSync(file, 'utf8')
const appFiles = ['src-server', 'scripts', 'db'].flatMap((dir) => sourceFiles(path.join(ROOT, dir)))

/** Files (relative to the repo) whose text matches `pattern`, outside the allowed folders. */
function offenders(files: string[], pattern: RegExp, allowed: string[]) {
  return files
    .map(rel)
    .filter((file) => !allowed.some((dir) => file.startsWith(dir)))
    .filter((file) => pattern.test(read(path.join(ROOT, file))))
}

/** The top-level folder of src-server a file lives in; files directly under src-server are the composition root. */
function serverFolder(file: string): string | null {
  const parts = path.relative(SERVER, file).split(path.sep)
  return parts.length > 1 && parts[0] !== '..' ? (parts[0] as string) : null
}

function serverFolderGraph(): FolderGraph {
  const graph: FolderGraph = new Map()
  for (const file of sourceFiles(SERVER)) {
    const from = serverFolder(file)
    if (!from) continue
    for (const spec of importsOf(read(file))) {
      if (!spec.startsWith('.')) continue
      const to = serverFolder(path.resolve(path.dirname(file), spec))
      if (!to || to === from) continue
      const edges = graph.get(from) ?? new Map<string, string>()
      if (!edges.has(to)) edges.set(to, rel(file))
      graph.set(from, edges)
    }
  }
  return graph
}

describe('server architecture', () => {
  it('uses TRPCError only under src-server/trpc and src-server/routers', () => {
    expect(offenders(appFiles, /\bTRPCError\b/, ['src-server/trpc/', 'src-server/routers/'])).toEqual([])
  })

  it("imports 'stripe' only under src-server/payments", () => {
    expect(
      offenders(appFiles, /from\s+['"]stripe['"]|import\(\s*['"]stripe['"]\s*\)/, ['src-server/payments/']),
    ).toEqual([])
  })

  it('writes orders and their lines only under src-server/orders', () => {
    const write = /\b(insertInto|updateTable|deleteFrom|mergeInto)\(\s*['"](orders|order_items|order_lines)['"]/
    // Migrations create the tables; benchmarks bulk-load thousands of fixture orders (no app path writes that fast).
    expect(offenders(appFiles, write, ['src-server/orders/', 'db/migrations/', 'scripts/bench-'])).toEqual([])
  })

  it('has no import cycle between server folders', () => {
    const graph = serverFolderGraph()
    expect(findFolderCycles(graph)).toEqual([])
    // The graph really is built: the routers reach the domain and the domain reaches auth and mail.
    expect(graph.get('routers')?.has('catalog')).toBe(true)
    expect(graph.get('auth')?.has('mail')).toBe(true)
  })

  it('keeps http/ and the domain free of trpc/ (only routers and the composition root use it)', () => {
    const graph = serverFolderGraph()
    const users = [...graph].filter(([, edges]) => edges.has('trpc')).map(([folder]) => folder)
    expect(users).toEqual(['routers'])
  })

  it('has migrations that import no app code', () => {
    const migrations = sourceFiles(path.join(ROOT, 'db/migrations'))
    const appImports = migrations.flatMap((file) =>
      importsOf(read(file))
        .filter(
          (spec) => spec.startsWith('.') && !path.resolve(path.dirname(file), spec).startsWith(path.dirname(file)),
        )
        .map((spec) => `${rel(file)} → ${spec}`),
    )
    expect(migrations.length).toBeGreaterThan(0)
    expect(appImports).toEqual([])
  })

  it('keeps db/ below src-server: CLIs that need server code live in scripts/', () => {
    const dbFiles = sourceFiles(path.join(ROOT, 'db'))
    const serverImports = dbFiles.flatMap((file) =>
      importsOf(read(file))
        .filter((spec) => path.resolve(path.dirname(file), spec).startsWith(SERVER + path.sep))
        .map((spec) => `${rel(file)} → ${spec}`),
    )
    expect(serverImports).toEqual([])
  })

  it('gives routers their dependencies built once on the context: no paymentsOf or depsOf per call', () => {
    const routers = sourceFiles(path.join(SERVER, 'routers'))
    expect(offenders(routers, /\b(paymentsOf|depsOf)\(/, [])).toEqual([])
  })

  it('parses a Stripe event once, at the edge (payments/stripe-event.ts); nothing below re-reads it', () => {
    const serverFiles = sourceFiles(SERVER)
    // Only the edge reads a webhook body (JSON.parse) and checks an event's envelope or object against a Stripe
    // schema; the Stripe adapter (stripe.ts) checks the API's own answers with the same schemas.
    const stripeParse =
      /\b(checkoutSessionSchema|subscriptionSchema|invoiceSchema|chargeSchema|disputeSchema|refundSchema|eventEnvelopeSchema|envelopeSchema)\.(safeParse|parse)\(/
    const edge = ['src-server/payments/stripe-event.ts']
    expect(offenders(serverFiles, stripeParse, [...edge, 'src-server/payments/stripe.ts'])).toEqual([])
    const payments = sourceFiles(path.join(SERVER, 'payments'))
    expect(offenders(payments, /\bJSON\.parse\(/, edge)).toEqual([])
    // Below the edge an event is the typed value: no parameter or result of `unknown`, no cast through it (a caught
    // error stays `unknown`).
    const untyped = /\b(object|payload|event|body|raw)\??:\s*unknown\b|Promise<unknown>|\bas unknown\b/
    expect(offenders(payments, untyped, edge)).toEqual([])
  })

  it('names the data layer one way: no service.ts, *-service.ts or queries.ts, no admin/ outside routers', () => {
    const serverFiles = sourceFiles(SERVER).map(rel)
    expect(serverFiles.filter((file) => /(^|\/|-)(service|queries)\.ts$/.test(file))).toEqual([])
    expect(serverFiles.filter((file) => file.includes('/admin/') && !file.startsWith('src-server/routers/'))).toEqual(
      [],
    )
  })
})

describe('folder cycle finder', () => {
  it('finds a cycle through three folders and ignores a one-way chain', () => {
    const graph: FolderGraph = new Map([
      ['payments', new Map([['http', 'payments/webhook.ts']])],
      ['http', new Map([['trpc', 'http/deps.ts']])],
      ['trpc', new Map([['payments', 'trpc/context.ts']])],
      ['routers', new Map([['payments', 'routers/payment.ts']])],
    ])
    expect(findFolderCycles(graph)).toEqual([
      ['http → trpc (http/deps.ts)', 'payments → http (payments/webhook.ts)', 'trpc → payments (trpc/context.ts)'],
    ])
    graph.delete('trpc')
    expect(findFolderCycles(graph)).toEqual([])
  })

  it('reads static, re-exported and dynamic imports', () => {
    const source =
      "import a from './a.ts'\nexport { b } from '../b.ts'\nconst c = await import('./c.ts')\nimport './d.ts'"
    expect(importsOf(source)).toEqual(['./a.ts', '../b.ts', './c.ts', './d.ts'])
  })
})

describe('README code layout', () => {
  it('names every server folder, with a line saying what it owns', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
    const layout = readme.slice(readme.indexOf('## Code layout'))
    const folders = readdirSync(SERVER, { withFileTypes: true }).filter((entry) => entry.isDirectory())
    const missing = folders
      .map((entry) => entry.name)
      .filter((name) => !new RegExp(`^ +${name}/ +\\S`, 'm').test(layout))
    expect(missing).toEqual([])
  })
})
