// ffmpeg and ffprobe as this machine has them: FFMPEG_PATH (ffprobe beside it), else the first on PATH. Found once at
// start and reported in the log; without them lesson videos play as uploaded (decision 0064).
import { type ChildProcess, spawn } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import path from 'node:path'

export interface Ffmpeg {
  ffmpeg: string
  ffprobe: string
  /** How long a run may print nothing before it is stopped as hung; SILENCE_LIMIT_MS unless set (tests). */
  silenceMs?: number
}

/**
 * A transcode prints its progress about twice a second and ffprobe answers in well under a second; two minutes of
 * silence is a hung program (a stalled disk, a broken input it loops on), which would otherwise hold its job and a CPU
 * until the queue's 4-hour expiry, and then keep running with nobody waiting for it.
 */
export const SILENCE_LIMIT_MS = 120_000

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

// Runs still going when this process exits (a worker stopped mid-transcode) are killed with it: otherwise ffmpeg ran on
// alone, writing into a temp folder nobody would read, beside the next worker's try.
const runningChildren = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of runningChildren) child.kill('SIGKILL')
})

/**
 * Runs a program; resolves its stdout, rejects with the end of its stderr. `onLine` sees stdout line by line. A run
 * that prints nothing on either stream for `silenceMs` is killed and rejects.
 */
export function run(
  file: string,
  args: string[],
  options: { onLine?: (line: string) => void; signal?: AbortSignal; cwd?: string; silenceMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal, cwd: options.cwd })
    runningChildren.add(child)
    const silenceMs = options.silenceMs ?? SILENCE_LIMIT_MS
    let hung = false
    let timer: NodeJS.Timeout | undefined
    const heard = () => {
      clearTimeout(timer)
      timer = setTimeout(() => {
        hung = true
        child.kill('SIGKILL')
      }, silenceMs)
    }
    heard()
    let out = ''
    let err = ''
    let pending = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      heard()
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
      heard()
      err = (err + chunk).slice(-4000)
    })
    child.on('error', (error) => {
      clearTimeout(timer)
      runningChildren.delete(child)
      reject(error)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      runningChildren.delete(child)
      if (hung) reject(new Error(`${path.basename(file)} printed nothing for ${silenceMs / 1000} s and was stopped`))
      else if (code === 0) resolve(out)
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
  const out = await run(
    tools.ffprobe,
    ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type,width,height', '-of', 'json', file],
    { silenceMs: tools.silenceMs },
  )
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
