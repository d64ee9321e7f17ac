// `npm start` builds only when it must: a fresh stamp skips the build; a newer input, a missing output or
// --rebuild asks for one. Runs on a scratch tree, never a real build.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BUILD_OUTPUTS, decideBuild, writeBuildStamp } from '../../scripts/start/build-decision.ts'

let root: string
const HOUR = 60 * 60 * 1000
const past = new Date(Date.now() - 2 * HOUR)

async function file(relative: string, at: Date = past) {
  const full = path.join(root, relative)
  await mkdir(path.dirname(full), { recursive: true })
  await writeFile(full, 'x')
  await utimes(full, at, at)
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'start-decision-'))
  for (const input of ['src-server/main.ts', 'src-client/main.tsx', 'db/migrate.ts', 'public/favicon.svg'])
    await file(input)
  for (const input of ['package-lock.json', 'tsconfig.json', 'tsconfig.server.json', 'vite.config.ts'])
    await file(input)
  for (const dir of ['src-server', 'src-client', 'db', 'public']) await utimes(path.join(root, dir), past, past)
  for (const output of BUILD_OUTPUTS) await file(output)
  await writeBuildStamp(root, Date.now() - HOUR)
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('decideBuild', () => {
  it('skips the build when the stamp is newer than every input', async () => {
    expect(await decideBuild(root)).toEqual({ build: false })
  })

  it('builds when a source file changed after the last build', async () => {
    await file('src-server/main.ts', new Date())
    expect(await decideBuild(root)).toEqual({ build: true, reason: 'src-server/main.ts changed since the last build' })
  })

  it('builds when a tsconfig or the lockfile changed', async () => {
    await file('tsconfig.server.json', new Date())
    expect((await decideBuild(root)).build).toBe(true)
    await writeBuildStamp(root, Date.now() + 1000)
    await file('package-lock.json', new Date(Date.now() + 2000))
    expect((await decideBuild(root)).build).toBe(true)
  })

  it('ignores files the build itself generates among its inputs', async () => {
    await file('src-client/routeTree.gen.ts', new Date())
    await utimes(path.join(root, 'src-client'), past, past)
    expect(await decideBuild(root)).toEqual({ build: false })
  })

  it('builds when the server or client output is missing, or the stamp is', async () => {
    await rm(path.join(root, 'dist/server'), { recursive: true })
    expect(await decideBuild(root)).toEqual({ build: true, reason: 'dist/server/src-server/main.js is missing' })
    await file('dist/server/src-server/main.js')
    await rm(path.join(root, 'dist/client/index.html'))
    expect((await decideBuild(root)).build).toBe(true)
    await file('dist/client/index.html')
    await rm(path.join(root, 'dist/.build-stamp'))
    expect(await decideBuild(root)).toEqual({ build: true, reason: 'no build stamp' })
  })

  it('builds on --rebuild even when everything is fresh', async () => {
    expect(await decideBuild(root, { rebuild: true })).toEqual({ build: true, reason: '--rebuild' })
  })
})
