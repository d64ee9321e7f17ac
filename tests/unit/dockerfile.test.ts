// The Dockerfile cannot be built here (no Docker engine), so what its image must hold is read from it: the runtime
// stage has ffmpeg for lesson videos' renditions (decision 0064), runs as the unprivileged user, and starts the server
// with `npm run serve`'s Node flags (decisions 0029, 0030).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const dockerfile = readFileSync('Dockerfile', 'utf8')
const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'))
const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts

describe('the Dockerfile’s runtime image', () => {
  it('installs ffmpeg, so the job queue can transcode lesson videos', () => {
    expect(runtime).toMatch(/apt-get install[^\n]*\\?\n?[^\n]*\bffmpeg\b/)
  })

  it('runs as the unprivileged node user, in production', () => {
    expect(runtime).toMatch(/^USER node$/m)
    expect(runtime).toMatch(/NODE_ENV=production/)
  })

  it('starts the server with the Node flags of npm run serve', () => {
    const serve = /node (--[^ ]+ )+dist\/server\/src-server\/main\.js/.exec(scripts.serve ?? '')?.[0] ?? ''
    const cmd = /^CMD \[(.+)\]$/m.exec(runtime)?.[1] ?? ''
    expect(serve).not.toBe('')
    expect((JSON.parse(`[${cmd}]`) as string[]).join(' ')).toBe(serve)
  })
})
