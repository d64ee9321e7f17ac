// Whether `npm start` must build first: when --rebuild is asked, when an output is missing, or when any input is
// newer than the stamp written after the last successful build. The stamp holds the time that build *started*,
// so a file saved while it ran still counts as newer.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'

/** Everything `npm run build` reads (tsconfig*.json are found by name). */
export const BUILD_INPUTS = [
  'src-client',
  'src-server',
  'src-shared',
  'db',
  'public',
  'panda.config.ts',
  'vite.config.ts',
  'index.html',
  'package-lock.json',
]
/** What `npm run serve` needs: the server's entry and the client's page. */
export const BUILD_OUTPUTS = ['dist/server/src-server/main.js', 'dist/client/index.html']
export const BUILD_STAMP = 'dist/.build-stamp'

/** Files the build writes into its own inputs (TanStack Router's route tree); they never ask for a rebuild. */
const isGenerated = (name: string) => name.endsWith('.gen.ts')

export type BuildDecision = { build: true; reason: string } | { build: false }

export async function decideBuild(root: string, options: { rebuild?: boolean } = {}): Promise<BuildDecision> {
  if (options.rebuild) return { build: true, reason: '--rebuild' }
  for (const output of BUILD_OUTPUTS) {
    if (!(await exists(path.join(root, output)))) return { build: true, reason: `${output} is missing` }
  }
  const builtAt = await readStamp(root)
  if (builtAt === undefined) return { build: true, reason: 'no build stamp' }
  const newest = await newestInput(root)
  if (newest && newest.mtimeMs > builtAt) return { build: true, reason: `${newest.file} changed since the last build` }
  return { build: false }
}

export async function writeBuildStamp(root: string, startedAtMs: number): Promise<void> {
  await writeFile(path.join(root, BUILD_STAMP), `${startedAtMs}\n`)
}

async function readStamp(root: string): Promise<number | undefined> {
  try {
    const value = Number((await readFile(path.join(root, BUILD_STAMP), 'utf8')).trim())
    return Number.isFinite(value) ? value : undefined
  } catch {
    return undefined
  }
}

/** The most recently modified input file (or directory: a deletion changes only its directory's mtime). */
export async function newestInput(root: string): Promise<{ file: string; mtimeMs: number } | undefined> {
  const tsconfigs = (await readdir(root)).filter((name) => /^tsconfig.*\.json$/.test(name))
  let newest: { file: string; mtimeMs: number } | undefined
  const visit = async (relative: string) => {
    const info = await stat(path.join(root, relative)).catch(() => undefined)
    if (!info) return
    if (!newest || info.mtimeMs > newest.mtimeMs) newest = { file: relative, mtimeMs: info.mtimeMs }
    if (!info.isDirectory()) return
    for (const name of await readdir(path.join(root, relative))) {
      if (!isGenerated(name)) await visit(path.join(relative, name))
    }
  }
  for (const input of [...BUILD_INPUTS, ...tsconfigs]) await visit(input)
  return newest
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  )
}
