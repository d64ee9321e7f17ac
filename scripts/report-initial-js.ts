// `npx tsx scripts/report-initial-js.ts [routeChunkPrefix]` after `npm run build`: the gzipped size of the
// JavaScript a first visit downloads — the entry's static import graph, plus a route chunk's (default: the
// home page's `routes-*.js`). Each chunk is gzipped on its own, as the server sends them.
import { readdirSync, readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

const dir = 'dist/client/assets/'
const html = readFileSync('dist/client/index.html', 'utf8')
const entries = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1] as string)
const seen = new Set<string>()

function visit(file: string) {
  if (seen.has(file)) return
  seen.add(file)
  const code = readFileSync(dir + file, 'utf8')
  // Static imports only (`import … from "./x.js"`); dynamic import() chunks load later, on demand.
  for (const match of code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) {
    visit(match[1] as string)
  }
}

for (const entry of entries) visit(entry)
const routePrefix = process.argv[2] ?? 'routes'
for (const file of readdirSync(dir).filter((f) => f.startsWith(`${routePrefix}-`) && f.endsWith('.js'))) visit(file)

let total = 0
for (const file of [...seen].sort()) {
  const size = gzipSync(readFileSync(dir + file)).length
  total += size
  console.log(`${file.padEnd(44)} ${(size / 1024).toFixed(1).padStart(7)} kB`)
}
console.log(`${'initial JavaScript, gzipped'.padEnd(44)} ${(total / 1024).toFixed(1).padStart(7)} kB`)
