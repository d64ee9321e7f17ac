// A stored video transcoded into HLS (decision 0064): renditions of 360p, 720p and 1080p (each only when the source is
// at least that tall), 2-second segments as byte ranges of one fragmented MP4 per rendition, a master playlist and a
// poster JPEG, stored beside the original under `<original key without extension>-hls/`:
//   master.m3u8 · 360p/index.m3u8 · 360p/stream.mp4 · 720p/… · poster.jpg
// One ffmpeg run makes every rendition (the source is decoded once); its `-progress` output against ffprobe's
// duration gives the percentage.
import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { type Ffmpeg, probe, run } from './ffmpeg.ts'
import type { FileStorage } from './storage.ts'

export const HLS_HEIGHTS = [360, 720, 1080] as const
const VIDEO_KBPS: Record<number, number> = { 360: 600, 720: 2500, 1080: 4500 }
export const SEGMENT_SECONDS = 2

/** The files a rendition folder may hold, and the folder's own: what the serving route accepts, nothing else. */
export const HLS_FILE = /^(?:master\.m3u8|poster\.jpg|(\d{3,4})p\/(?:index\.m3u8|stream\.mp4))$/

export const HLS_CONTENT_TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.mp4': 'video/mp4',
  '.jpg': 'image/jpeg',
}

/** Where a stored video's renditions live: beside it, same prefix. */
export function hlsPrefixOf(originalKey: string): string {
  const dot = originalKey.lastIndexOf('.')
  const stem = dot > originalKey.lastIndexOf('/') ? originalKey.slice(0, dot) : originalKey
  return `${stem}-hls/`
}

/** The renditions for a source this tall: the ladder's steps it reaches, or one at its own height when below 360p. */
export function renditionHeights(sourceHeight: number): number[] {
  const heights = HLS_HEIGHTS.filter((height) => height <= sourceHeight)
  return heights.length ? heights : [Math.max(2, sourceHeight - (sourceHeight % 2))]
}

function ffmpegArgs(input: string, heights: number[], hasAudio: boolean): string[] {
  const split = `[0:v]split=${heights.length}${heights.map((_, i) => `[s${i}]`).join('')}`
  const scales = heights.map((height, i) => `[s${i}]scale=-2:${height}[v${i}]`)
  const args = ['-hide_banner', '-loglevel', 'error', '-nostats', '-y', '-i', input, '-progress', 'pipe:1']
  args.push('-filter_complex', [split, ...scales].join(';'))
  heights.forEach((height, i) => {
    const kbps = VIDEO_KBPS[height] ?? Math.max(300, Math.round((height / 360) * 700))
    args.push('-map', `[v${i}]`)
    args.push(
      `-b:v:${i}`,
      `${kbps}k`,
      `-maxrate:v:${i}`,
      `${Math.round(kbps * 1.1)}k`,
      `-bufsize:v:${i}`,
      `${kbps * 2}k`,
    )
  })
  if (hasAudio) for (const _ of heights) args.push('-map', '0:a:0')
  args.push('-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-profile:v', 'main')
  // A keyframe every segment's length exactly (2 s: a small first segment is a quick first frame on a slow phone,
  // `npm run bench:video`), so every segment starts with one (and renditions switch at the same instants).
  args.push('-sc_threshold', '0', '-force_key_frames', `expr:gte(t,n_forced*${SEGMENT_SECONDS})`)
  if (hasAudio) args.push('-c:a', 'aac', '-b:a', '96k', '-ac', '2')
  const streams = heights.map((height, i) => `v:${i}${hasAudio ? `,a:${i}` : ''},name:${height}p`)
  args.push(
    '-f',
    'hls',
    '-hls_time',
    String(SEGMENT_SECONDS),
    '-hls_playlist_type',
    'vod',
    '-hls_segment_type',
    'fmp4',
    '-hls_flags',
    'single_file+independent_segments',
    '-master_pl_name',
    'master.m3u8',
    '-var_stream_map',
    streams.join(' '),
    '-hls_segment_filename',
    '%v/stream.mp4',
    '%v/index.m3u8',
  )
  return args
}

/** Whole percent done from one `-progress` line (`out_time_us=…`), or null for other lines. */
export function progressPercent(line: string, durationSeconds: number): number | null {
  const match = /^out_time_(?:us|ms)=(\d+)$/.exec(line.trim())
  if (!match || durationSeconds <= 0) return null
  return Math.max(0, Math.min(99, Math.floor((Number(match[1]) / 1e6 / durationSeconds) * 100)))
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

async function* filesUnder(root: string, dir = root): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) yield* filesUnder(root, file)
    else yield path.relative(root, file).split(path.sep).join('/')
  }
}

export interface Transcoded {
  prefix: string
  heights: number[]
  durationSeconds: number
}

/**
 * Transcodes the stored video at `originalKey` and stores its renditions and poster beside it. `onPercent` hears
 * whole percentages (0–99) as ffmpeg goes; the caller records 100 when this resolves.
 */
export async function transcodeStoredVideo(
  tools: Ffmpeg,
  storage: FileStorage,
  originalKey: string,
  onPercent: (percent: number) => void | Promise<void>,
): Promise<Transcoded> {
  const work = await mkdtemp(path.join(tmpdir(), 'sf-hls-'))
  try {
    const input = path.join(work, 'original')
    await pipeline(await storage.read(originalKey), createWriteStream(input))
    const source = await probe(tools, input)
    const heights = renditionHeights(source.height)
    const out = path.join(work, 'out')
    await mkdir(out)
    let last = -1
    let writing: Promise<unknown> = Promise.resolve()
    await run(tools.ffmpeg, ffmpegArgs(input, heights, source.hasAudio), {
      onLine: (line) => {
        const percent = progressPercent(line, source.durationSeconds)
        if (percent === null || percent === last) return
        last = percent
        writing = writing.then(() => onPercent(percent)).catch(() => undefined)
      },
      cwd: out,
      silenceMs: tools.silenceMs,
    })
    await writing
    const posterAt = Math.min(1, source.durationSeconds / 2).toFixed(2)
    await run(
      tools.ffmpeg,
      [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-ss', posterAt, '-i', input, '-frames:v', '1'],
        ...['-vf', `scale=-2:${Math.min(720, heights.at(-1) ?? 360)}`, '-q:v', '4', path.join(out, 'poster.jpg')],
      ],
      { silenceMs: tools.silenceMs },
    )
    const prefix = hlsPrefixOf(originalKey)
    const names: string[] = []
    for await (const name of filesUnder(out)) if (HLS_FILE.test(name)) names.push(name)
    // The master playlist last: once it is in storage, every file it names is there.
    names.sort((a, b) => Number(a === 'master.m3u8') - Number(b === 'master.m3u8'))
    for (const name of names) {
      const file = path.join(out, name)
      const type = HLS_CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream'
      if (name.endsWith('.mp4')) {
        const size = (await stat(file)).size
        await storage.putFile(`${prefix}${name}`, { path: file, size, sha256: await sha256Of(file) }, type)
      } else {
        await storage.put(`${prefix}${name}`, await readFile(file), type)
      }
    }
    return { prefix, heights, durationSeconds: source.durationSeconds }
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

/** Removes a video's renditions (the upload was released, or a failed run left some). */
export async function removeRenditions(storage: FileStorage, prefix: string): Promise<number> {
  let removed = 0
  for await (const file of storage.list(prefix)) {
    await storage.remove(file.key)
    removed++
  }
  return removed
}
