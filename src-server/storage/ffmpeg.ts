// ffmpeg and ffprobe as this machine has them: FFMPEG_PATH (ffprobe beside it), else the first on PATH. Found once at
// start and reported in the log; without them lesson videos play as uploaded (decision 0064).
import { spawn } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import path from 'node:path'

export interface Ffmpeg {
  ffmpeg: string
  ffprobe: string
}

const executable = (file: string) => {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** ffmpeg and ffprobe, or null when either is missing. */
export function findFfmpeg(ffmpegPath = process.env.FFMPEG_PATH, searchPath = process.env.PATH ?? ''): Ffmpeg | null {
  if (ffmpegPath) {
    const ffprobe = path.join(path.dirname(ffmpegPath), path.basename(ffmpegPath).replace('ffmpeg', 'ffprobe'))
    return executable(ffmpegPath) && executable(ffprobe) ? { ffmpeg: ffmpegPath, ffprobe } : null
  }
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const ffmpeg = path.join(dir, 'ffmpeg')
    const ffprobe = path.join(dir, 'ffprobe')
    if (executable(ffmpeg) && executable(ffprobe)) return { ffmpeg, ffprobe }
  }
  return null
}

/** Runs a program; resolves its stdout, rejects with the end of its stderr. `onLine` sees stdout line by line. */
export function run(
  file: string,
  args: string[],
  options: { onLine?: (line: string) => void; signal?: AbortSignal; cwd?: string } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal, cwd: options.cwd })
    let out = ''
    let err = ''
    let pending = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (!options.onLine) {
        out += chunk
        return
      }
      pending += chunk
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) options.onLine(line)
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err = (err + chunk).slice(-4000)
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) resolve(out)
      else {
        const tail = err.trim().split('\n').slice(-3).join(' | ')
        reject(new Error(`${path.basename(file)} exited with ${code}: ${tail}`))
      }
    })
  })
}

export interface Probe {
  durationSeconds: number
  width: number
  height: number
  hasAudio: boolean
}

/** The video's length and picture size, and whether it has sound (ffprobe). */
export async function probe(tools: Ffmpeg, file: string): Promise<Probe> {
  const out = await run(tools.ffprobe, [
    '-v',
    'error',
    '-show_entries',
    'format=duration:stream=codec_type,width,height',
    '-of',
    'json',
    file,
  ])
  const parsed = JSON.parse(out) as {
    format?: { duration?: string }
    streams?: { codec_type?: string; width?: number; height?: number }[]
  }
  const video = parsed.streams?.find((stream) => stream.codec_type === 'video')
  if (!video?.width || !video.height) throw new Error('ffprobe found no video stream')
  return {
    durationSeconds: Number(parsed.format?.duration ?? 0) || 0,
    width: video.width,
    height: video.height,
    hasAudio: Boolean(parsed.streams?.some((stream) => stream.codec_type === 'audio')),
  }
}
