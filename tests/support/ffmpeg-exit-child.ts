// A process that starts a run of a program that never ends (storage/ffmpeg.ts `run`), says so, and exits when told
// (a line on stdin), as a worker stopped mid-transcode does: the test then looks for the program.
import { run } from '../../src-server/storage/ffmpeg.ts'

const program = process.argv[2] ?? ''
run(program, []).catch(() => undefined)
console.log('run started')
process.stdin.once('data', () => process.exit(0))
