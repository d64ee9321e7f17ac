// A run of ffmpeg (storage/ffmpeg.ts `run`) ends with the process that started it: a worker stopped mid-transcode
// does not leave ffmpeg running on alone (decision 0120).
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, it } from 'vitest'

const CHILD = path.resolve('tests/support/ffmpeg-exit-child.ts')

/** Gone, or a zombie waiting for its reaper (it runs no more). */
async function stopped(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0)
  } catch {
    return true
  }
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  return /^State:\s+Z/m.test(status)
}

it('kills a run still going when its process exits', async () => {
  const bin = await mkdtemp(path.join(tmpdir(), 'ffmpeg-exit-'))
  const pidFile = path.join(bin, 'pid')
  const program = path.join(bin, 'ffmpeg')
  await writeFile(program, `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 600\n`, { mode: 0o755 })
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, program], { stdio: ['pipe', 'pipe', 'inherit'] })
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('run started') && resolve())
      child.on('exit', (code) => reject(new Error(`the child exited (${code}) before its run started`)))
    })
    await expect
      .poll(() => existsSync(pidFile) && readFile(pidFile, 'utf8').then(Boolean), { timeout: 10_000 })
      .toBe(true)
    const pid = Number(await readFile(pidFile, 'utf8'))
    expect(await stopped(pid)).toBe(false)
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.stdin.write('exit\n')
    await exited
    await expect.poll(() => stopped(pid), { timeout: 5000 }).toBe(true)
  } finally {
    child.kill('SIGKILL')
    await rm(bin, { recursive: true, force: true })
  }
})
