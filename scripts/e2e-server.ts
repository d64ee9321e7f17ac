// Starts the built server for the end-to-end tests on a fresh database: a new PostgreSQL database when
// TEST_DATABASE_URL is set, else a new PGlite data directory. The server migrates and seeds it on start.
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'

const port = process.env.E2E_PORT ?? '4321'
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: 'production',
  PORT: port,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  CLIENT_DIR: path.resolve('dist/client'),
}

if (process.env.TEST_DATABASE_URL) {
  const name = `sf_e2e_${port}`
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await admin.connect()
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(process.env.TEST_DATABASE_URL)
  url.pathname = `/${name}`
  env.DATABASE_URL = url.toString()
  delete env.DATA_DIR
} else {
  delete env.DATABASE_URL
  env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'storefront-e2e-'))
}

const child = spawn(process.execPath, ['dist/server/src-server/main.js'], { env, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))
child.on('exit', (code) => process.exit(code ?? 0))
