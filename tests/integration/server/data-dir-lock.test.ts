// One process at a time on the embedded database's folder (kernel/data-dir-lock.ts): `npm run admin:create` run while
// the server held DATA_DIR opened a second copy of the files, said "Owner account created", and the account was not
// there. Now the second process is refused with what to do, and a lock left by a process that is gone is taken over.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, inject, it } from 'vitest'
import { openPglite } from '../../../src-server/kernel/db.ts'

const root = path.resolve(import.meta.dirname, '../../..')
const dirs: string[] = []
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'data-dir-lock-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

// The embedded database only: under the PostgreSQL project it would repeat the same files' test.
describe.runIf(inject('testDb').kind === 'pglite')('the embedded database’s folder', () => {
  it('refuses admin:create while the server holds it, and lets it run once the server has closed it', async () => {
    const dir = dataDir()
    const server = await openPglite({ dataDir: dir })
    const lockFile = path.join(dir, 'pglite.lock')
    expect(readFileSync(lockFile, 'utf8')).toMatch(new RegExp(`^${process.pid} `))
    const adminCreate = () =>
      spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'scripts/admin-create.ts',
          '--email',
          'owner@lock.test',
          '--password',
          'correct horse battery',
        ],
        { cwd: root, env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' }, encoding: 'utf8', timeout: 120_000 },
      )
    const refused = adminCreate()
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain(`is in use by another process (pid ${process.pid}): stop the server`)
    expect(refused.stdout).not.toContain('Owner account created')
    await server.close()
    expect(existsSync(lockFile)).toBe(false)
    const created = adminCreate()
    expect(created.stdout).toContain('Owner account created for owner@lock.test.')
    // And the server, opened again, finds the owner the script wrote.
    const reopened = await openPglite({ dataDir: dir })
    const owner = await reopened.db.selectFrom('users').select('role').where('email', '=', 'owner@lock.test').execute()
    await reopened.close()
    expect(owner).toEqual([{ role: 'super_admin' }])
  }, 240_000)

  it('takes over a lock whose process is gone', async () => {
    const dir = dataDir()
    const gone = spawn('true')
    await new Promise((resolve) => gone.on('exit', resolve))
    writeFileSync(path.join(dir, 'pglite.lock'), String(gone.pid))
    const handle = await openPglite({ dataDir: dir })
    expect(readFileSync(path.join(dir, 'pglite.lock'), 'utf8')).toMatch(new RegExp(`^${process.pid} `))
    await handle.close()
  }, 120_000)

  it('refuses while another live process holds it', async () => {
    const dir = dataDir()
    const holder = spawn('sleep', ['60'])
    try {
      writeFileSync(path.join(dir, 'pglite.lock'), String(holder.pid))
      await expect(openPglite({ dataDir: dir })).rejects.toThrow(`in use by another process (pid ${holder.pid})`)
    } finally {
      holder.kill()
    }
  })
})
