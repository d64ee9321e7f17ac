// `npm start`: build only when the build is missing or older than its sources (or with --rebuild), then run the
// built server in this process, as `npm run serve` does. Runs on Node's own type stripping: no tsx, no wait.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { decideBuild, writeBuildStamp } from './start/build-decision.ts'

const root = path.resolve(import.meta.dirname, '..')
const decision = await decideBuild(root, { rebuild: process.argv.includes('--rebuild') })

if (decision.build) {
  console.log(`Building (${decision.reason})…`)
  const startedAt = Date.now()
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
  await writeBuildStamp(root, startedAt)
} else {
  console.log('Build is up to date; starting (npm start -- --rebuild forces a build).')
}

process.env.NODE_ENV = 'production'
await import(pathToFileURL(path.join(root, 'dist/server/src-server/main.js')).href)
