// `npm run bench:video`: time to first frame on a throttled connection (Chromium, CDP Network.emulateNetworkConditions
// 1.6 Mbit/s down, 150 ms latency) for a lesson video as uploaded against its HLS renditions (issue 37, goal ≤ 2 s
// with HLS). A 1080p test video (ffmpeg testsrc2 with noise, so it does not compress to nothing; 6 Mbit/s, moov first
// as a good export has it) is transcoded by the app's own code (storage/hls.ts), then both are served with HTTP Range
// by a small local server, and a page plays each the way the lesson player does (native HLS where the browser has it,
// else hls.js, its code loaded before timing starts). Each run is a fresh browser context (no cache). Prints the median of the runs for each.
//   npx tsx scripts/bench-video.ts [--runs 3] [--seconds 20] [--height 1080]
import { execFileSync } from 'node:child_process'
import { createReadStream } from 'node:fs'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { chromium } from '@playwright/test'
import { findFfmpeg } from '../src-server/storage/ffmpeg.ts'
import { transcodeStoredVideo } from '../src-server/storage/hls.ts'
import { createLocalStorage } from '../src-server/storage/storage.ts'
import { HEADLESS_CHROMIUM_ARGS } from '../tests/support/chromium.ts'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '20' },
    height: { type: 'string', default: '1080' },
  },
})
const RUNS = Number(values.runs)
const KBPS = 1600
const LATENCY_MS = 150

const tools = findFfmpeg()
if (!tools) {
  console.error('bench:video needs ffmpeg and ffprobe (FFMPEG_PATH or PATH)')
  process.exit(1)
}

const TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.jpg': 'image/jpeg',
  '.js': 'text/javascript',
  '.html': 'text/html',
}

const PAGE = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<video id="v" muted playsinline preload="auto" style="width:640px"></video>
<script>
window.loadHls = () =>
  new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = '/hls.min.js'
    script.onload = resolve
    script.onerror = reject
    document.head.appendChild(script)
  })
window.bench = async function (kind, src) {
  const video = document.getElementById('v')
  const start = performance.now()
  const frame = new Promise((resolve) => video.requestVideoFrameCallback(() => resolve(performance.now() - start)))
  // As the lesson player does: hls.js wherever MSE exists, the browser's own HLS only without it.
  if (kind === 'hls' && typeof MediaSource !== 'undefined') {
    const hls = new Hls({ capLevelToPlayerSize: true, enableWorker: false, startLevel: 0 })
    hls.loadSource(src)
    hls.attachMedia(video)
  } else {
    video.src = src
  }
  video.play().catch(() => {})
  return frame
}
</script>`

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), 'sf-bench-video-'))
  try {
    const height = Number(values.height)
    const width = Math.round((height * 16) / 9 / 2) * 2
    const original = 'private/lessons/videos/bench.mp4'
    const file = path.join(dir, original)
    execFileSync('mkdir', ['-p', path.dirname(file)])
    console.log(`generating a ${width}×${height} ${values.seconds} s test video…`)
    execFileSync(tools!.ffmpeg, [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', `testsrc2=size=${width}x${height}:rate=30:duration=${values.seconds}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${values.seconds}`],
      ...['-vf', 'noise=alls=12:allf=t', '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '6M', '-maxrate', '6M'],
      ...['-bufsize', '12M', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', file],
    ])
    const storage = createLocalStorage(dir)
    const started = performance.now()
    const done = await transcodeStoredVideo(tools!, storage, original, () => {})
    const transcodeMs = performance.now() - started
    const originalBytes = (await stat(file)).size
    const hlsJs = await readFile(path.resolve('node_modules/hls.js/dist/hls.min.js'))

    const server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      if (url.pathname === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE)
      if (url.pathname === '/hls.min.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(hlsJs)
      const target = path.join(dir, decodeURIComponent(url.pathname))
      if (!target.startsWith(dir)) return res.writeHead(404).end()
      const info = await stat(target).catch(() => null)
      if (!info?.isFile()) return res.writeHead(404).end()
      const type = TYPES[path.extname(target)] ?? 'application/octet-stream'
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '')
      if (range) {
        const from = Number(range[1])
        const to = range[2] ? Math.min(Number(range[2]), info.size - 1) : info.size - 1
        res.writeHead(206, {
          'content-type': type,
          'accept-ranges': 'bytes',
          'content-range': `bytes ${from}-${to}/${info.size}`,
          'content-length': to - from + 1,
        })
        return createReadStream(target, { start: from, end: to }).pipe(res)
      }
      res.writeHead(200, { 'content-type': type, 'accept-ranges': 'bytes', 'content-length': info.size })
      createReadStream(target).pipe(res)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...HEADLESS_CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'],
    })
    const measure = async (kind: 'original' | 'hls', src: string) => {
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.goto(base)
      // The player's code is loaded before the clock starts (the app's hls.js chunk is cached after the first lesson;
      // the original needs none): what is timed is the video's own bytes.
      if (kind === 'hls') await page.evaluate(() => (window as never as { loadHls: () => Promise<void> }).loadHls())
      const cdp = await context.newCDPSession(page)
      await cdp.send('Network.enable')
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: LATENCY_MS,
        downloadThroughput: (KBPS * 1000) / 8,
        uploadThroughput: (750 * 1000) / 8,
      })
      const ms = await page.evaluate(
        ([k, s]) => (window as never as { bench: (kind: string, src: string) => Promise<number> }).bench(k, s),
        [kind, src] as [string, string],
      )
      await context.close()
      return Number(ms)
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN
    const results: Record<string, number[]> = { original: [], hls: [] }
    for (let run = 0; run < RUNS; run++) {
      results.original!.push(await measure('original', `/${original}`))
      results.hls!.push(await measure('hls', `/${done.prefix}master.m3u8`))
    }
    await browser.close()
    server.close()
    const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`
    console.log(
      `\nsource ${width}×${height}, ${values.seconds} s, ${(originalBytes / 1e6).toFixed(1)} MB; renditions ${done.heights.map((h) => `${h}p`).join(', ')} (transcoded in ${fmt(transcodeMs)})`,
    )
    console.log(`network: ${KBPS / 1000} Mbit/s down, ${LATENCY_MS} ms latency (CDP), ${RUNS} fresh loads each`)
    console.log(
      `time to first frame, original: median ${fmt(median(results.original!))}  (${results.original!.map(fmt).join(', ')})`,
    )
    console.log(
      `time to first frame, HLS:      median ${fmt(median(results.hls!))}  (${results.hls!.map(fmt).join(', ')})`,
    )
    const goal = median(results.hls!) <= 2000
    console.log(`goal ≤ 2 s to first frame with HLS: ${goal ? 'met' : 'NOT met'}`)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

await main()
