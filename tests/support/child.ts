// Runs a TypeScript entry point in a child process (through tsx) and waits for a line it prints when ready.
import { type ChildProcess, spawn } from 'node:child_process'

// Every child still running when its test file ends is killed: a test that timed out (its own clean-up never ran,
// or it was still waiting for the ready line) once left a worker spinning through the rest of a full run.
const running = new Set<ChildProcess>()
const killRunning = () => {
  for (const child of running) child.kill('SIGKILL')
}
process.once('exit', killRunning)
// In a test file (not in the benchmark that shares this helper): also when the file's tests end.
if (process.env.VITEST) (await import('vitest')).afterAll(killRunning)

export interface Child {
  process: ChildProcess
  /** Everything it printed so far (shown when a test fails). */
  output(): string
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>
}

export async function startChild(entry: string, env: NodeJS.ProcessEnv, readyLine: string | RegExp): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  let output = ''
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child)
      resolve(code ?? signal ?? -1)
    }),
  )
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (typeof readyLine === 'string' ? output.includes(readyLine) : readyLine.test(output)) resolve()
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    void exited.then((code) => reject(new Error(`${entry} exited (${code}) before it was ready:\n${output}`)))
  })
  return { process: child, output: () => output, exited }
}
