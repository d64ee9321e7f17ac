// File storage behind one small interface: local disk under DATA_DIR (served at /uploads) by default;
// an S3-compatible bucket can implement the same interface.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'

export interface FileStorage {
  /** Stores bytes under a key such as "avatars/<userId>/avatar-<n>.png" and returns the public URL. */
  put(key: string, data: Buffer, contentType: string): Promise<string>
  /** Removes a stored file; a missing file is not an error. */
  remove(key: string): Promise<void>
  /** The key of a URL this storage produced, or null for a foreign URL. */
  keyFromUrl(url: string): string | null
}

export const UPLOADS_PREFIX = '/uploads/'

function assertSafeKey(key: string): void {
  if (!/^[a-zA-Z0-9][a-zA-Z0-9/_.-]*$/.test(key) || key.includes('..')) throw new Error(`Unsafe storage key: ${key}`)
}

export function createLocalStorage(rootDir: string): FileStorage {
  const root = path.resolve(rootDir)
  return {
    async put(key, data) {
      assertSafeKey(key)
      const file = path.join(root, key)
      await mkdir(path.dirname(file), { recursive: true })
      await writeFile(file, data)
      return `${UPLOADS_PREFIX}${key}`
    },
    async remove(key) {
      assertSafeKey(key)
      await rm(path.join(root, key), { force: true })
    },
    keyFromUrl(url) {
      return url.startsWith(UPLOADS_PREFIX) ? url.slice(UPLOADS_PREFIX.length) : null
    },
  }
}
