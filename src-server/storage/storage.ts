// File storage behind one small interface: local disk under DATA_DIR (served at /uploads) by default;
// an S3-compatible bucket implements the same interface (s3.ts).
import { copyFile, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { StorageFailure } from '../kernel/storage-failure.ts'
import type { StagedFile } from './staged-upload.ts'

export interface StoredFile {
  key: string
  lastModified: Date
}

/** Bytes start..end (inclusive) of a stored file. */
export interface ByteRange {
  start: number
  end: number
}

export interface FileStorage {
  /** The size of a stored file in bytes, or null when there is none (private files are served through routes). */
  size(key: string): Promise<number | null>
  /** A stored file's bytes, all or one range of them. */
  read(key: string, range?: ByteRange): Promise<Readable>
  /** Stores bytes under a key such as "avatars/<userId>/avatar-<n>.png" and returns the public URL. */
  put(key: string, data: Buffer, contentType: string): Promise<string>
  /** Stores a staged upload (a file on disk, staged-upload.ts) under a key without reading it into memory. */
  putFile(key: string, file: StagedFile, contentType: string): Promise<string>
  /** Where uploads are staged before they are stored: on the same disk as local storage (a rename, no copy). */
  readonly stagingDir: string
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

/** A disk that cannot take a write or give a read (full, read-only, no permission, an I/O error): a StorageFailure,
 * the system's words kept. */
function diskFailure(what: string) {
  return (error: unknown): never => {
    throw new StorageFailure(`${what} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    })
  }
}

/** No such file (null), or the disk failing (`failure`). */
function missingOr(failure: (error: unknown) => never) {
  return (error: NodeJS.ErrnoException): null => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null
    return failure(error)
  }
}

export function createLocalStorage(rootDir: string): FileStorage {
  const root = path.resolve(rootDir)
  return {
    async put(key, data) {
      assertSafeKey(key)
      const file = path.join(root, key)
      await mkdir(path.dirname(file), { recursive: true })
        .then(() => writeFile(file, data))
        .catch(diskFailure(`storing ${key}`))
      return `${UPLOADS_PREFIX}${key}`
    },
    async putFile(key, file) {
      assertSafeKey(key)
      const target = path.join(root, key)
      await mkdir(path.dirname(target), { recursive: true })
        .then(() =>
          rename(file.path, target).catch(async (error: NodeJS.ErrnoException) => {
            if (error.code !== 'EXDEV') throw error
            await copyFile(file.path, target)
          }),
        )
        .catch(diskFailure(`storing ${key}`))
      return `${UPLOADS_PREFIX}${key}`
    },
    // Not a valid key (leading '.'), so never listed, served or swept as a stored file.
    stagingDir: path.join(root, '.staging'),
    async size(key) {
      assertSafeKey(key)
      const info = await stat(path.join(root, key)).catch(missingOr(diskFailure(`reading ${key}`)))
      return info?.isFile() ? info.size : null
    },
    async read(key, range) {
      assertSafeKey(key)
      // Opened here, so a disk that cannot be read fails this call (a 503), not the stream after the headers went.
      const file = await open(path.join(root, key), 'r').catch(missingOr(diskFailure(`reading ${key}`)))
      if (!file) throw new Error(`No stored file ${key}`)
      return file.createReadStream(range ? { start: range.start, end: range.end } : {})
    },
    async remove(key) {
      assertSafeKey(key)
      await rm(path.join(root, key), { force: true }).catch(diskFailure(`removing ${key}`))
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
