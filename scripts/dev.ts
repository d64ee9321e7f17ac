// `npm run dev`: the API server with reload (tsx watch) and the Vite dev server with HMR, side by side.
import { type ChildProcess, spawn } from 'node:child_process'

const children: ChildProcess[] = [
  spawn('npx', ['panda', '--watch', '--silent'], { stdio: 'inherit' }),
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src-server/main.ts'], {
    stdio: 'inherit',
    // Development: staff may sign in without a second factor (STAFF_2FA=required to try the enforced set-up).
    env: { STAFF_2FA: 'optional', ...process.env, CLIENT_DIR: process.env.CLIENT_DIR ?? './dist/client' },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit' }),
]

const stop = () => {
  for (const child of children) child.kill('SIGTERM')
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
for (const child of children) child.on('exit', (code) => code && code !== 0 && stop())
