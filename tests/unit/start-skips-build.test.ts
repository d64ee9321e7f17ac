// The second `npm start` on an unchanged tree skips the build: the real scripts/start.ts runs twice in a scratch
// tree whose `npm run build` is a stand-in that counts its runs and writes the outputs start.ts checks for.
import { spawnSync } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const repo = path.resolve(import.meta.dirname, '../..')
let root: string
const past = new Date(Date.now() - 60 * 60 * 1000)

// Writes the two outputs; the "server" only says it ran (and in which mode) and exits.
const FAKE_BUILD = `
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
appendFileSync('builds.log', 'built\\n')
mkdirSync('dist/server/src-server', { recursive: true })
mkdirSync('dist/client', { recursive: true })
writeFileSync('dist/server/src-server/main.js', "console.log('server started in ' + process.env.NODE_ENV)\\n")
writeFileSync('dist/client/index.html', '<!doctype html>')
`

async function write(relative: string, text: string, at?: Date) {
  const full = path.join(root, relative)
  await mkdir(path.dirname(full), { recursive: true })
  await writeFile(full, text)
  if (at) await utimes(full, at, at)
}

function start(...args: string[]) {
  const run = spawnSync(process.execPath, ['scripts/start.ts', ...args], { cwd: root, encoding: 'utf8' })
  expect(run.status, run.stderr).toBe(0)
  return run.stdout
}

const builds = async () =>
  (await readFile(path.join(root, 'builds.log'), 'utf8').catch(() => '')).split('\n').length - 1

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'start-skips-build-'))
  await mkdir(path.join(root, 'scripts/start'), { recursive: true })
  await copyFile(path.join(repo, 'scripts/start.ts'), path.join(root, 'scripts/start.ts'))
  await copyFile(path.join(repo, 'scripts/start/build-decision.ts'), path.join(root, 'scripts/start/build-decision.ts'))
  await write('package.json', JSON.stringify({ type: 'module', scripts: { build: 'node build.mjs' } }))
  await write('build.mjs', FAKE_BUILD)
  for (const input of ['src-server/main.ts', 'src-client/main.tsx', 'src-shared/a.ts', 'db/migrate.ts']) {
    await write(input, 'export {}', past)
    await utimes(path.join(root, path.dirname(input)), past, past)
  }
  await write('package-lock.json', '{}', past)
  await write('tsconfig.json', '{}', past)
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('npm start (scripts/start.ts)', () => {
  it('builds on the first start, skips the build on the second, and runs the built server both times', async () => {
    const first = start()
    expect(first).toContain('Building (dist/server/src-server/main.js is missing)')
    expect(first).toContain('server started in production')
    expect(await builds()).toBe(1)

    const second = start()
    expect(second).toContain('Build is up to date')
    expect(second).toContain('server started in production')
    expect(await builds()).toBe(1)
  })

  it('builds again when a source changed, and on --rebuild', async () => {
    await write('src-server/main.ts', 'export const changed = true')
    expect(start()).toContain('src-server/main.ts changed since the last build')
    expect(await builds()).toBe(2)
    expect(start()).toContain('Build is up to date')
    expect(start('--rebuild')).toContain('Building (--rebuild)')
    expect(await builds()).toBe(3)
  })
})
