// Where resumable (tus) uploads keep their bytes while they arrive: @tus/file-store in DATA_DIR/tus on local disk,
// @tus/s3-store in the bucket when uploads go to S3 (a multipart upload, the object named by the upload id). When an
// upload finishes, its bytes are read where they are (the first bytes and the video's header, random access) and
// then moved into FileStorage under a lesson video key: a rename on local disk, a server-side copy in the bucket.
// The stores are loaded on the first upload: with the AWS SDK under @tus/s3-store they are ~10 MiB of heap that a web
// node serving the catalogue never needs (decision 0165).
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import path from 'node:path'
import type { DataStore } from '@tus/server'
import { onFirstUse } from '../kernel/on-first-use.ts'
import type { S3Options } from './s3.ts'
import { readFileAt } from './staged-upload.ts'
import type { FileStorage } from './storage.ts'
import type { ReadAt } from './video-duration.ts'

/** Unfinished uploads older than this are gone (tus answers 410 and the daily sweep deletes them). */
export const TUS_UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000

export interface TusFiles {
  /** The tus datastore, made on first use. */
  datastore(): Promise<DataStore>
  /** Random-access reads of an upload's bytes (a finished one: to judge its content and read its length). */
  open(id: string): Promise<{ read: ReadAt; close: () => Promise<void> }>
  /** Moves a finished upload's bytes into FileStorage under `key`; the upload itself is gone afterwards. */
  moveTo(storage: FileStorage, id: string, size: number, key: string, contentType: string): Promise<void>
  /** Removes an upload's bytes and its tus metadata; a missing upload is not an error. */
  remove(id: string): Promise<void>
  /** Removes unfinished uploads past TUS_UPLOAD_EXPIRY_MS; returns how many. */
  removeExpired(): Promise<number>
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

export function createLocalTusFiles(directory: string): TusFiles {
  const store = onFirstUse(async () => {
    const { FileStore } = await import('@tus/file-store')
    return new FileStore({ directory, expirationPeriodInMilliseconds: TUS_UPLOAD_EXPIRY_MS })
  })
  const fileOf = (id: string) => path.join(directory, id)
  return {
    datastore: store,
    async open(id) {
      return readFileAt(fileOf(id))
    },
    async moveTo(storage, id, size, key, contentType) {
      // Local storage renames the file (same disk, no copy); a bucket checks the payload's hash, so it is computed
      // only then.
      const sha256 = storage.publicOrigin === null ? '' : await sha256Of(fileOf(id))
      await storage.putFile(key, { path: fileOf(id), size, sha256 }, contentType)
      const datastore = await store()
      await datastore.configstore.delete(id).catch(() => {})
      await datastore.remove(id).catch(() => {})
    },
    async remove(id) {
      const datastore = await store()
      await datastore.remove(id).catch(() => {})
      await datastore.configstore.delete(id).catch(() => {})
    },
    removeExpired: async () => (await store()).deleteExpired(),
  }
}

export function createS3TusFiles(options: S3Options): TusFiles {
  // The AWS SDK waits forever by default: a bucket that accepts the connection and never answers held a creator's
  // upload (and its request) open for good. Connecting and each silence on the socket are bounded; a part still
  // being sent is not silence.
  const timeoutMs = options.timeoutMs ?? 15_000
  const store = onFirstUse(async () => {
    const { LessonS3Store } = await import('./tus-s3-store.ts')
    return new LessonS3Store({
      // 8 MB parts: the browser sends chunks of this size too (VideoUpload.tsx), each a short request.
      partSize: 8 * 1024 * 1024,
      expirationPeriodInMilliseconds: TUS_UPLOAD_EXPIRY_MS,
      s3ClientConfig: {
        bucket: options.bucket,
        region: options.region,
        endpoint: options.endpoint,
        forcePathStyle: Boolean(options.endpoint),
        requestHandler: { connectionTimeout: timeoutMs, socketTimeout: timeoutMs },
        // One retry, not the SDK's two: a silent bucket cost a tus step three timeouts (~50 s) before its error, and
        // the browser's upload retries the step itself.
        maxAttempts: 2,
        credentials: {
          accessKeyId: options.accessKeyId,
          secretAccessKey: options.secretAccessKey,
          sessionToken: options.sessionToken,
        },
      },
    })
  })
  return {
    datastore: store,
    async open(id) {
      const datastore = await store()
      return { read: (start, length) => datastore.readRange(id, start, length), close: async () => {} }
    },
    async moveTo(_storage, id, _size, key, contentType) {
      const datastore = await store()
      // One CopyObject handles up to 5 GB, above the 4 GB a lesson video may weigh.
      await datastore.copyTo(id, key, contentType)
      // The copy is what counts; what is left of the upload is the sweep's if this fails.
      await datastore.discard(id).catch(() => {})
    },
    async remove(id) {
      await (await store()).discard(id).catch(() => {})
    },
    removeExpired: async () => (await store()).deleteExpired(),
  }
}
