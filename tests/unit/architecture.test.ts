// The server's layout rules (docs/decisions/0011-server-layout.md), checked by reading the source tree: who may
// use tRPC, Stripe and the orders tables, and that server folders depend on each other one way only.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { type FolderGraph, findFolderCycles, importsOf, packagesLoadedBy } from '../support/import-graph.ts'

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

/**
 * The server's layers (docs/decisions/0034-flows-over-leaves.md). A folder not named here is a domain leaf, so a new
 * folder starts under the strictest rule.
 */
const LAYERS = {
  kernel: ['kernel'],
  /** Services every layer may use: the access ledger, audit, identity (auth, users, staff), mail, limits, files. */
  platform: ['access', 'audit', 'auth', 'mail', 'security', 'storage', 'team', 'users'],
  flows: ['flows'],
  /** Entry points: tRPC routers, plain HTTP routes, scheduled jobs. */
  transport: ['http', 'jobs', 'routers', 'trpc'],
} as const

type Layer = keyof typeof LAYERS | 'leaf' | 'root'

function layerOf(folder: string | null): Layer {
  if (folder === null) return 'root'
  for (const [layer, folders] of Object.entries(LAYERS)) {
    if ((folders as readonly string[]).includes(folder)) return layer as Layer
  }
  return 'leaf'
}

/** What each layer may import besides itself (a leaf: nothing of another leaf). */
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  kernel: [],
  platform: ['kernel'],
  leaf: ['kernel', 'platform'],
  flows: ['kernel', 'platform', 'leaf'],
  transport: ['kernel', 'platform', 'leaf', 'flows'],
  root: ['kernel', 'platform', 'leaf', 'flows', 'transport'],
}

/** Every import of one server file into another's folder: 'from → to' with their layers. */
function crossFolderImports() {
  const found: { from: string; to: string; fromLayer: Layer; toLayer: Layer; typeOnly: boolean }[] = []
  for (const file of sourceFiles(SERVER)) {
    const fromFolder = serverFolder(file)
    const source = read(file)
    const statements = /^(?:import|export)\s+(type\s+)?[^'"]*?['"](\.[^'"]+)['"]|\bimport\(\s*()['"](\.[^'"]+)['"]/gm
    for (const match of source.matchAll(statements)) {
      const target = path.resolve(path.dirname(file), (match[2] ?? match[4]) as string)
      if (!target.startsWith(SERVER + path.sep)) continue
      const toFolder = serverFolder(target)
      if (toFolder === fromFolder) continue
      found.push({
        from: rel(file),
        to: rel(target),
        fromLayer: layerOf(fromFolder),
        toLayer: layerOf(toFolder),
        typeOnly: Boolean(match[1]),
      })
    }
  }
  return found
}

/**
 * Which folder imports which, to find cycles. The kernel's configuration types name each service's settings type
 * (kernel/config.ts); a type import there is a description, not a dependency.
 */
function serverFolderGraph(): FolderGraph {
  const graph: FolderGraph = new Map()
  for (const edge of crossFolderImports()) {
    if (edge.fromLayer === 'kernel' && edge.typeOnly) continue
    const from = serverFolder(path.join(ROOT, edge.from))
    const to = serverFolder(path.join(ROOT, edge.to))
    if (!from || !to) continue
    const edges = graph.get(from) ?? new Map<string, string>()
    if (!edges.has(to)) edges.set(to, edge.from)
    graph.set(from, edges)
  }
  return graph
}

describe('server architecture', () => {
  it('uses TRPCError only under src-server/trpc and src-server/routers', () => {
    // The forms that work before JavaScript (http/native-forms.ts) call the same procedures and read their errors.
    const allowed = ['src-server/trpc/', 'src-server/routers/', 'src-server/http/native-forms.ts']
    expect(offenders(appFiles, /\bTRPCError\b/, allowed)).toEqual([])
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

  it('gives subscriptions one home: only subscriptions/ writes subscriptions and plans; one word per concept', () => {
    const write = /\b(insertInto|updateTable|deleteFrom|mergeInto)\(\s*['"](subscriptions|plans)['"]/
    // Migrations create the tables; the seed loads the plans of the pricing page.
    expect(offenders(appFiles, write, ['src-server/subscriptions/', 'db/migrations/', 'db/seed/'])).toEqual([])
    const folders = readdirSync(SERVER)
    // The service offering is `services` (its router and tables), the payment rails `payments` (folder and router).
    expect(folders.filter((name) => ['offerings', 'membership', 'plans', 'payment'].includes(name))).toEqual([])
    expect(existsSync(path.join(SERVER, 'routers/payment.ts'))).toBe(false)
  })

  it('gives the creator side its owners: creators/, earnings/ and catalog/ are the only writers of their tables', () => {
    const owners: [string, RegExp, string[]][] = [
      [
        'creators/',
        /\b(insertInto|updateTable|deleteFrom|mergeInto)\(\s*['"](creators|creator_applications|course_instructors|course_instructor_invites|creator_uploads|instructors)['"]/,
        // The studio benchmark builds its creator and 1,000 courses directly, as the seed does.
        ['src-server/creators/', 'db/migrations/', 'db/seed/', 'scripts/bench-studio.ts'],
      ],
      [
        'earnings/',
        /\b(insertInto|updateTable|deleteFrom|mergeInto)\(\s*['"](earning_shares|earning_share_parts|ledger_transactions|ledger_entries|creator_payout_accounts|creator_payouts|payout_settings|premium_pool_months|premium_pool_shares|premium_pool_share_parts)['"]/,
        ['src-server/earnings/', 'db/migrations/'],
      ],
      [
        'learning/',
        /\b(insertInto|updateTable|deleteFrom|mergeInto)\(\s*['"](premium_watch_time|premium_watch_clocks|quizzes|quiz_attempts)['"]/,
        ['src-server/learning/', 'db/migrations/'],
      ],
      [
        'catalog/',
        /\b(insertInto|updateTable|deleteFrom|mergeInto)\(\s*['"](course_submissions|course_drafts)['"]/,
        ['src-server/catalog/', 'db/migrations/'],
      ],
    ]
    for (const [owner, write, allowed] of owners) expect(offenders(appFiles, write, allowed), owner).toEqual([])
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

  it('keeps domain folders leaves: a leaf imports only the kernel and platform services, never another leaf', () => {
    const imports = crossFolderImports()
    const leafCrossings = imports
      .filter((edge) => edge.fromLayer === 'leaf' && !MAY_IMPORT.leaf.includes(edge.toLayer))
      .map((edge) => `${edge.from} → ${edge.to}`)
    expect(leafCrossings).toEqual([])
    // The rule has something to hold: flows really cross leaves.
    const flowsReach = new Set(imports.filter((edge) => edge.fromLayer === 'flows').map((e) => e.to.split('/')[1]))
    expect(['orders', 'cart', 'subscriptions', 'learning', 'catalog'].every((leaf) => flowsReach.has(leaf))).toBe(true)
  })

  it('layers the rest one way: kernel below platform below leaves below flows below transport', () => {
    const wrong = crossFolderImports()
      .filter((edge) => edge.fromLayer !== 'leaf' && edge.toLayer !== edge.fromLayer)
      // The kernel's types (what the server is configured with) may name a service's settings type.
      .filter((edge) => !(edge.fromLayer === 'kernel' && edge.typeOnly))
      .filter((edge) => !MAY_IMPORT[edge.fromLayer].includes(edge.toLayer))
      .map((edge) => `${edge.fromLayer} ${edge.from} → ${edge.toLayer} ${edge.to}`)
    expect(wrong).toEqual([])
  })

  it('lets only flows/ reach more than two domain leaves from one file', () => {
    const leavesOf = new Map<string, Set<string>>()
    for (const edge of crossFolderImports()) {
      if (edge.toLayer !== 'leaf' || edge.fromLayer === 'flows') continue
      const leaves = leavesOf.get(edge.from) ?? new Set<string>()
      leaves.add(edge.to.split('/')[1] as string)
      leavesOf.set(edge.from, leaves)
    }
    const wide = [...leavesOf]
      .filter(([, leaves]) => leaves.size > 2)
      .map(([file, leaves]) => `${file}: ${[...leaves]}`)
    expect(leavesOf.size).toBeGreaterThan(10)
    expect(wide).toEqual([])
  })

  it('keeps plain HTTP routes in http/ (tRPC in trpc/, hooks in security/, the error mapping in the kernel)', () => {
    const allowed = [
      'src-server/http/',
      'src-server/trpc/',
      'src-server/security/',
      'src-server/kernel/error-mapping.ts',
    ]
    const serverFiles = sourceFiles(SERVER).filter((file) => serverFolder(file) !== null)
    expect(offenders(serverFiles, /\bFastifyInstance\b/, allowed)).toEqual([])
    expect(offenders(sourceFiles(SERVER), /\.setErrorHandler\(/, ['src-server/kernel/error-mapping.ts'])).toEqual([])
  })

  it('keeps packages few requests use out of a web node’s start: each is loaded by its first use', () => {
    // Decisions 0030 and 0165: a web node serving the catalogue carries none of them (~30 MiB of heap in all).
    const loadedOnFirstUse = [
      'stripe',
      'nodemailer',
      '@electric-sql/pglite',
      'pdfkit',
      'pg-boss',
      'ioredis',
      '@tus/server',
      '@tus/file-store',
      '@tus/s3-store',
      '@simplewebauthn/server',
      'zod-openapi',
      'markdown-it',
      'sanitize-html',
      'arctic',
      'openid-client',
    ]
    const atStart = packagesLoadedBy(path.join(SERVER, 'main.ts'), read)
    expect(
      loadedOnFirstUse.filter((name) => atStart.has(name)).map((name) => `${name} (${rel(atStart.get(name)!)})`),
    ).toEqual([])
    // The walk itself finds what start-up does load.
    expect(atStart.has('fastify') && atStart.has('pg')).toBe(true)
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
    const payments = [...sourceFiles(path.join(SERVER, 'payments')), ...sourceFiles(path.join(SERVER, 'flows'))]
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
      ['payments', new Map([['http', 'http/stripe-webhook.ts']])],
      ['http', new Map([['trpc', 'http/deps.ts']])],
      ['trpc', new Map([['payments', 'trpc/context.ts']])],
      ['routers', new Map([['payments', 'routers/payments.ts']])],
    ])
    expect(findFolderCycles(graph)).toEqual([
      ['http → trpc (http/deps.ts)', 'payments → http (http/stripe-webhook.ts)', 'trpc → payments (trpc/context.ts)'],
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

describe('client imports', () => {
  it('reach other folders through the package.json aliases (#client, #shared, #server, #styled-system), never ../../', () => {
    const client = sourceFiles(path.join(ROOT, 'src-client'))
    const deep = client.flatMap((file) =>
      importsOf(read(file))
        .filter((spec) => spec.startsWith('../../'))
        .map((spec) => `${rel(file)} → ${spec}`),
    )
    expect(client.length).toBeGreaterThan(50)
    expect(deep).toEqual([])
    // Every alias the client uses is declared in package.json.
    const declared = Object.keys(JSON.parse(read(path.join(ROOT, 'package.json'))).imports as object)
    const used = new Set(client.flatMap((file) => importsOf(read(file)).filter((spec) => spec.startsWith('#'))))
    const undeclared = [...used].filter((spec) => !declared.some((alias) => spec.startsWith(alias.replace('*', ''))))
    expect(undeclared).toEqual([])
  })
})

describe('test layout', () => {
  it('groups integration tests in folders named after the server folder they test (server/ for the whole server)', () => {
    const serverFolders = new Set(
      readdirSync(SERVER, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name),
    )
    const integration = path.join(ROOT, 'tests/integration')
    const misplaced = sourceFiles(integration)
      .map((file) => path.relative(integration, file).split(path.sep))
      .filter((parts) => parts.length !== 2 || !(serverFolders.has(parts[0] as string) || parts[0] === 'server'))
      .map((parts) => parts.join('/'))
    expect(misplaced).toEqual([])
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
