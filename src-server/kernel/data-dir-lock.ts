// One process at a time on an embedded database's folder. PGlite has no lock of its own: a second process (the
// README's `npm run admin:create` while the server runs, a second `npm start`) opened its own copy of the files,
// wrote to it and said it had succeeded, and the two copies overwrote each other's pages. The lock file holds the
// owner's pid; one whose process is gone (a crash, a reboot) is taken over.
import { randomUUID } from 'node:crypto'
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'

/** Takes the folder's lock, or throws naming the process that holds it. Returns its release (idempotent). */
export function lockDataDir(dataDir: string): () => void {
  const lockPath = `${dataDir}.lock`
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx')
      // The pid, and a mark of this opening: a release removes the file only while it is still this opening's.
      const content = `${process.pid} ${randomUUID()}`
      writeSync(fd, content)
      closeSync(fd)
      return releaseOnce(lockPath, content)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10)
      if (isAnotherLiveProcess(holder)) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by another process (pid ${holder}): stop the server ` +
            `(or that process) first, then run this again. If no such process runs, delete ${lockPath}.`,
        )
      }
      rmSync(lockPath, { force: true }) // left by a process that is gone
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}`)
}

function isAnotherLiveProcess(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false
  try {
    process.kill(pid, 0) // signal 0: only asks whether the process exists
    return true
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function releaseOnce(lockPath: string, content: string): () => void {
  let held = true
  const release = () => {
    if (!held) return
    held = false
    process.off('exit', release)
    try {
      if (readFileSync(lockPath, 'utf8') === content) rmSync(lockPath, { force: true })
    } catch {
      // already gone
    }
  }
  // A process that ends without closing the database (an uncaught error, process.exit) still gives the folder back.
  process.on('exit', release)
  return release
}
