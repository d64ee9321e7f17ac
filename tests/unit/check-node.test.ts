// A newcomer on an old Node reads what to do: scripts/check-node.cjs (npm ci's preinstall, and the first step of
// start, serve, dev and worker) exits 1 with the version needed; CHECK_NODE_VERSION stands in for an old Node.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const repo = path.resolve(import.meta.dirname, '../..')
const check = path.join(repo, 'scripts/check-node.cjs')

function runAs(version: string) {
  return spawnSync(process.execPath, [check], {
    env: { ...process.env, CHECK_NODE_VERSION: version },
    encoding: 'utf8',
  })
}

describe('scripts/check-node.cjs', () => {
  it('stops on Node 20 with the version needed and how to get it', () => {
    const run = runAs('v20.11.1')
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('This project needs Node 24 (found v20.11.1)')
    expect(run.stderr).toContain('source scripts/ci/use-node.sh')
    expect(run.stderr).toContain('.nvmrc')
  })

  it('lets Node 24 and newer through silently', () => {
    for (const version of ['v24.0.0', process.version, 'v26.1.0']) {
      const run = runAs(version)
      expect([version, run.status, run.stderr]).toEqual([version, 0, ''])
    }
  })

  it('runs before npm ci installs and before every way of starting the app', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    expect(scripts.preinstall).toBe('node scripts/check-node.cjs')
    for (const name of ['start', 'serve', 'dev', 'worker']) {
      expect([name, scripts[name]?.startsWith('node scripts/check-node.cjs && ')]).toEqual([name, true])
    }
  })
})
