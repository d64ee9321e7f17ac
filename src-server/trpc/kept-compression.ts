// Compressed copies of the kept answers (trpc/answer-cache.ts). A kept answer is the same bytes for every caller until
// the catalogue changes, and every browser sends Accept-Encoding, so @fastify/compress gzipped (or brotli'd) the same
// 2–7 kB again for every hit: more CPU than the whole rest of the request (issue 37). The plugin is given a zlib whose
// synchronous compressors remember, for a kept answer only, what they made of it with the options they were given:
// the bytes sent are those zlib makes of that input with those options, as before, and the plugin still chooses the
// encoding and sets Content-Encoding, Vary and Content-Length itself. The copies live as long as the kept answer (a
// WeakMap on its Buffer), so they go with the catalogue snapshot that holds it.
import zlib from 'node:zlib'

/**
 * The tRPC GET route compresses answers up to this size in one synchronous call (@fastify/compress's `syncThreshold`,
 * its own upper bound), so every kept answer goes the way whose output is remembered. The plugin's default depends on
 * the host's cores (8 KiB on two, 4 KiB on four or more), and above it each answer went through a zlib stream.
 */
export const KEPT_ANSWER_SYNC_THRESHOLD = 64 * 1024

type CompressSync = (buffer: Buffer, options?: unknown) => Buffer

/** The zlib methods @fastify/compress calls for a buffered payload (its `compressSync` table). */
const SYNC_METHODS = ['brotliCompressSync', 'gzipSync', 'deflateSync', 'zstdCompressSync'] as const
type SyncMethod = (typeof SYNC_METHODS)[number]

/** Kept answers → their compressed copies, by method and then by the options object it was called with. */
const copies = new WeakMap<Buffer, Map<SyncMethod, Map<unknown, Buffer>>>()

/** Marks a kept answer's bytes: they are never changed, so what they compress to can be remembered. */
export function keepCompressedCopies(body: Buffer): void {
  if (!copies.has(body)) copies.set(body, new Map())
}

/**
 * The `zlib` option of @fastify/compress: node:zlib's synchronous compressors, remembering their output for kept
 * answers. Only those methods are given; the plugin takes everything else (the streams, decompression) from node:zlib.
 */
export function keptAnswerZlib(): Partial<Record<SyncMethod, CompressSync>> {
  const methods: Partial<Record<SyncMethod, CompressSync>> = {}
  for (const name of SYNC_METHODS) {
    const compress = (zlib as unknown as Record<string, CompressSync | undefined>)[name]
    if (typeof compress !== 'function') continue // zstd: Node 22.15+/23.8+
    methods[name] = (buffer, options) => {
      const kept = copies.get(buffer)
      if (kept === undefined) return compress(buffer, options)
      let byOptions = kept.get(name)
      if (byOptions === undefined) {
        byOptions = new Map()
        kept.set(name, byOptions)
      }
      let compressed = byOptions.get(options)
      if (compressed === undefined) {
        compressed = compress(buffer, options)
        byOptions.set(options, compressed)
      }
      return compressed
    }
  }
  return methods
}
