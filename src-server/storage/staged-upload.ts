// Receives an uploaded file as a stream into a staging file on disk, never holding more than one chunk (and the
// first bytes it judges) in memory: the size limit is enforced while the bytes arrive, the content is judged from
// the first bytes before anything else is written, and the SHA-256 is computed on the way (S3 checks it).
// The caller then stores the staged file (FileStorage.putFile) and removes it (`discard`) in every case.
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises'
import path from 'node:path'

export interface StagedFile {
  path: string
  size: number
  sha256: string
}

export type StageRefusal = 'too-large' | 'refused' | 'empty'

/** How many bytes a content check needs at most (a text check looks at 64 kB; signatures at a few bytes). */
export const SNIFF_BYTES = 64 * 1024

export async function stageUpload<T>(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: { dir: string; maxBytes: number; detect: (head: Uint8Array) => T | null },
): Promise<{ file: StagedFile; type: T } | { refusal: StageRefusal }> {
  await mkdir(options.dir, { recursive: true })
  const file = path.join(options.dir, `${Date.now()}-${randomBytes(8).toString('hex')}.part`)
  const handle = await open(file, 'wx')
  const hash = createHash('sha256')
  let size = 0
  let head: Uint8Array[] = []
  let headBytes = 0
  let type: T | null = null
  const refuse = async (refusal: StageRefusal) => {
    await handle.close().catch(() => {})
    await rm(file, { force: true })
    return { refusal }
  }
  const judge = async () => {
    const bytes = Buffer.concat(head)
    type = options.detect(bytes)
    if (type === null) return false
    await handle.write(bytes)
    head = []
    return true
  }
  try {
    for await (const chunk of source) {
      size += chunk.length
      if (size > options.maxBytes) return await refuse('too-large')
      hash.update(chunk)
      if (type !== null) {
        await handle.write(chunk)
        continue
      }
      head.push(chunk)
      headBytes += chunk.length
      if (headBytes >= SNIFF_BYTES && !(await judge())) return await refuse('refused')
    }
  } catch (error) {
    // The multipart parser ends the stream with FST_REQ_FILE_TOO_LARGE when the part passes its own limit.
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') return await refuse('too-large')
    await refuse('refused')
    throw error
  }
  if (size === 0) return refuse('empty')
  if (type === null && !(await judge())) return refuse('refused')
  await handle.close()
  return { file: { path: file, size, sha256: hash.digest('hex') }, type: type as T }
}

/** Removes a staged file (after it was stored, or when storing failed). */
export function discard(file: StagedFile): Promise<void> {
  return rm(file.path, { force: true })
}

/** Random-access reads of a local file, for readers such as video-duration.ts. */
export async function readFileAt(filePath: string) {
  const handle = await open(filePath, 'r')
  return {
    read: async (start: number, length: number) => {
      const buffer = Buffer.alloc(length)
      const { bytesRead } = await handle.read(buffer, 0, length, start)
      return buffer.subarray(0, bytesRead)
    },
    close: () => handle.close(),
  }
}

/**
 * Staged files an upload left behind (the process died between staging and storing): removed once older than
 * `olderThan`, so an upload still arriving keeps its file. Run by the daily storage sweep. Returns how many went.
 */
export async function sweepStaleStaging(dir: string, olderThan: Date): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[])
  let removed = 0
  for (const name of names) {
    if (!name.endsWith('.part')) continue
    const file = path.join(dir, name)
    const info = await stat(file).catch(() => null)
    if (!info?.isFile() || info.mtime >= olderThan) continue
    await rm(file, { force: true })
    removed++
  }
  return removed
}
