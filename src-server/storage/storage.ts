// File storage behind one small interface: local disk under DATA_DIR (served at /uploads) by default;
// an S3-compatible bucket implements the same interface (s3.ts).
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'

export interface StoredFile {
  key: string
  lastModified: Date
}

export interface FileStorage {
  /** Stores bytes under a key such as "avatars/<userId>/avatar-<n>.png" and returns the public URL. */
  put(key: string, data: Buffer, contentType: string): Promise<string>
  /** The bytes of a stored file, or null when there is none (private files are served through this). */
  read(key: string): Promise<Buffer | null>
  /** Removes a stored file; a missing file is not an error. */
  remove(key: string): Promise<void>
  /** Every stored file whose key starts with the prefix (e.g. "courses/"). */
  list(prefix: string): AsyncIterable<StoredFile>
  /** The key of a URL this storage produced, or null for a foreign URL. */
  keyFromUrl(url: string): string | null
  /** The origin stored files are read from, for the CSP's img-src; null when this site serves them itself. */
  readonly publicOrigin: string | null
}

export const UPLOADS_PREFIX = '/uploads/'

/**
 * Keys under this prefix are private: the /uploads route never serves them and no bucket policy may open them;
 * they are read only through routes that check who asks (service-order files).
 */
export const PRIVATE_PREFIX = 'private/'

const SAFE_KEY = /^[a-zA-Z0-9][a-zA-Z0-9/_.-]*$/

/** Keys are our own names (no '..', no leading '/'), safe as a path on disk and in a bucket URL. */
export function isSafeKey(key: string): boolean {
  return SAFE_KEY.test(key) && !key.includes('..')
}

export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`)
}

async function* walk(root: string, dir: string): AsyncGenerator<StoredFile> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return []
    throw error
  })
  for (const entry of entries) {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(root, file)
    else if (entry.isFile()) {
      const key = path.relative(root, file).split(path.sep).join('/')
      if (isSafeKey(key)) yield { key, lastModified: (await stat(file)).mtime }
    }
  }
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
    async read(key) {
      assertSafeKey(key)
      return readFile(path.join(root, key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null
        throw error
      })
    },
    async remove(key) {
      assertSafeKey(key)
      await rm(path.join(root, key), { force: true })
    },
    async *list(prefix) {
      // Walk only the prefix's folder ("courses/" → <root>/courses), not the whole tree.
      const folder = path.join(root, prefix.slice(0, prefix.lastIndexOf('/') + 1))
      if (!folder.startsWith(root)) throw new Error(`Unsafe storage prefix: ${prefix}`)
      for await (const file of walk(root, folder)) if (file.key.startsWith(prefix)) yield file
    },
    keyFromUrl(url) {
      return url.startsWith(UPLOADS_PREFIX) ? url.slice(UPLOADS_PREFIX.length) : null
    },
    publicOrigin: null,
  }
}
