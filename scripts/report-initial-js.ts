// `npx tsx scripts/report-initial-js.ts [routeChunkPrefix]` after `npm run build`: the gzipped size of the
// JavaScript a first visit downloads — the entry's static import graph, plus a route chunk's (default: the
// home page's `routes-*.js`). Each chunk is gzipped on its own, as the server sends them.
// tests/e2e/initial-js.spec.ts holds the home page to its budget (INITIAL_JS_BUDGET_KB).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'

/** Issue 17: the home page's first load stays under this, gzipped (150 kB until decision 0059: the route tree grew). */
export const INITIAL_JS_BUDGET_KB = 154

export function initialJs(clientDir = 'dist/client', routePrefix = 'routes') {
  const dir = path.join(clientDir, 'assets')
  const html = readFileSync(path.join(clientDir, 'index.html'), 'utf8')
  const entries = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1] as string)
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const code = readFileSync(path.join(dir, file), 'utf8')
    // Static imports only (`import … from "./x.js"`); dynamic import() chunks load later, on demand.
    for (const match of code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) {
      visit(match[1] as string)
    }
  }
  for (const entry of entries) visit(entry)
  for (const file of readdirSync(dir).filter((f) => f.startsWith(`${routePrefix}-`) && f.endsWith('.js'))) visit(file)
  const chunks = [...seen]
    .sort()
    .map((file) => ({ file, gzipBytes: gzipSync(readFileSync(path.join(dir, file))).length }))
  return { chunks, totalBytes: chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0) }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { chunks, totalBytes } = initialJs('dist/client', process.argv[2])
  for (const { file, gzipBytes } of chunks) {
    console.log(`${file.padEnd(44)} ${(gzipBytes / 1024).toFixed(1).padStart(7)} kB`)
  }
  console.log(`${'initial JavaScript, gzipped'.padEnd(44)} ${(totalBytes / 1024).toFixed(1).padStart(7)} kB`)
}
