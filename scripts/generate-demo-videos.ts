// Authoring-time generator of the demo lesson videos in db/seed/media (committed; CI never runs this).
// Needs ffmpeg on PATH (Debian: apt-get install ffmpeg). Each video is a titled slide with a running clock and a
// progress bar, VP9 in WebM at 480×270 and 10 frames a second: a few hundred kB for a minute or more.
//   npx tsx scripts/generate-demo-videos.ts
import { execFileSync } from 'node:child_process'
import { statSync } from 'node:fs'
import path from 'node:path'
import { DEMO_VIDEOS } from '../db/seed/data/videos.ts'

const outDir = path.resolve('db/seed/media')

for (const video of DEMO_VIDEOS) {
  const file = path.join(outDir, video.file)
  const seconds = video.durationSeconds
  const text = (value: string) => value.replace(/[:\\']/g, (c) => `\\${c}`)
  const filters = [
    `drawtext=text='${text(video.title)}':fontcolor=white:fontsize=26:x=(w-text_w)/2:y=90`,
    `drawtext=text='SkillForge demo lesson':fontcolor=0x9db4ff:fontsize=16:x=(w-text_w)/2:y=135`,
    `drawtext=text='%{eif\\:floor(t/60)\\:d}\\:%{eif\\:mod(floor(t)\\,60)\\:d\\:2} / ${Math.floor(seconds / 60)}\\:${String(seconds % 60).padStart(2, '0')}':fontcolor=white:fontsize=18:x=(w-text_w)/2:y=180`,
    `drawbox=x=40:y=225:w=400:h=10:color=0x334155:t=fill`,
    `drawbox=x=40:y=225:w='400*t/${seconds}':h=10:color=0x3b82f6:t=fill`,
  ].join(',')
  execFileSync(
    'ffmpeg',
    [
      '-y',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `color=c=0x1e293b:s=480x270:r=10:d=${seconds}`,
      '-vf',
      filters,
      '-c:v',
      'libvpx-vp9',
      '-b:v',
      '0',
      '-crf',
      '50',
      '-deadline',
      'good',
      '-row-mt',
      '1',
      '-g',
      '100',
      '-an',
      file,
    ],
    { stdio: 'inherit' },
  )
  console.log(`${video.file}: ${seconds} s, ${Math.round(statSync(file).size / 1024)} kB`)
}
