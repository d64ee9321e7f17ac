// A small real video made by ffmpeg for the tests of lesson videos: 640×360 test picture with a 440 Hz tone, H.264 and
// AAC (2 s is about 40 kB, encoded in well under a second). `faststart` puts the index first, as a phone's upload has it.
import { execFileSync } from 'node:child_process'

export function makeTestVideo(ffmpeg: string, file: string, seconds = 2, options: { faststart?: boolean } = {}) {
  execFileSync(ffmpeg, [
    ...[
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=640x360:rate=25:duration=${seconds}`,
    ],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...[
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      ...(options.faststart ? ['-movflags', '+faststart'] : []),
      file,
    ],
  ])
}
