// A school's own domain through the real TLS engine (decision 0063): Caddy run with docs/deploy/Caddyfile in front of
// a production server (https PUBLIC_URL, TRUST_PROXY), with its local CA in place of ACME (nothing outside can be
// reached here) and its ports moved to free ones. Caddy asks the app before issuing a certificate on demand: a
// verified school's name gets one and is served the school (its home is its page); any other name gets no certificate
// at all; plain HTTP goes to HTTPS. A learner signs in over HTTPS on the platform's name (a Secure, host-only session),
// never by password on the school's, where the hand-off signs them in. Skipped where Caddy is not installed (CI
// installs it: .ci/run).
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TLSSocket } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { checkSchoolDomain } from '../../../src-server/flows/school-domain.ts'
import { caddyInstalled } from '../../support/caddy.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { freePort } from '../../support/free-port.ts'
import { startTestServer, type TestServer } from '../../support/http.ts'

const PUBLIC_URL = 'https://skillforge.example'
const SCHOOL_HOST = 'academy.example.test'

let database: TestDatabase
let server: TestServer
let caddy: ChildProcess | undefined
let work = ''
let httpPort = 0
let httpsPort = 0
let caddyOutput = ''

/** The deploy Caddyfile as it is, but for the app's address, free ports, a local CA and a state folder of its own. */
async function testCaddyfile(appAddress: string): Promise<string> {
  const deployed = await readFile('docs/deploy/Caddyfile', 'utf8')
  expect(deployed).toContain('127.0.0.1:3000')
  const local = [
    `\thttp_port ${httpPort}`,
    `\thttps_port ${httpsPort}`,
    '\tadmin off',
    '\tlocal_certs',
    '\tskip_install_trust',
    `\tstorage file_system ${path.join(work, 'state')}`,
  ].join('\n')
  return deployed.replaceAll('127.0.0.1:3000', appAddress).replace(/^\{\n/m, `{\n${local}\n`)
}

async function untilListening(port: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(true)).on('error', () => resolve(false))
      socket.unref()
      setTimeout(() => socket.destroy(), 500).unref()
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`Caddy did not listen on ${port}: ${caddyOutput.slice(-2000)}`)
}

/** A request over HTTPS to Caddy for `host` (SNI and Host), with the certificate Caddy presented. */
function httpsRequest(
  host: string,
  pathname = '/',
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{
    status: number
    location?: string
    setCookie: string[]
    body: string
    san: string
    issuer: string
  }>((resolve, reject) => {
    const request = https.request(
      {
        host: '127.0.0.1',
        port: httpsPort,
        servername: host,
        path: pathname,
        method: options.method ?? 'GET',
        headers: { host, ...options.headers },
        rejectUnauthorized: false,
      },
      (response) => {
        const certificate = (response.socket as TLSSocket).getPeerCertificate()
        let body = ''
        response.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk
        })
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location,
            setCookie: response.headers['set-cookie'] ?? [],
            body,
            san: certificate.subjectaltname ?? '',
            issuer: String(certificate.issuer?.CN ?? ''),
          }),
        )
      },
    )
    request.setTimeout(20_000, () => request.destroy(new Error('no answer in 20 s')))
    request.on('error', reject).end(options.body)
  })
}

/** A password sign-in through Caddy under `host`, as the page there sends it. */
const signInAnswer = (host: string, email: string, password: string) =>
  httpsRequest(host, '/trpc/auth.login', {
    method: 'POST',
    headers: { origin: `https://${host}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })

/** Signs in through Caddy under `host`; the session cookie's Set-Cookie line. */
async function signInThrough(host: string, email: string, password: string) {
  const answer = await signInAnswer(host, email, password)
  expect(answer.status, answer.body).toBe(200)
  return answer.setCookie.find((line) => line.startsWith(`${SESSION_COOKIE}=`)) ?? ''
}

beforeAll(async () => {
  if (!caddyInstalled) return
  database = await createTestDatabase()
  server = await startTestServer(database.db, {
    env: { NODE_ENV: 'production', PUBLIC_URL, TRUST_PROXY: ['127.0.0.1'] },
  })
  // A school on Pro whose domain has been proved (its TXT record found).
  const owner = await createCreator(database.db, { plan: 'pro' })
  const asOwner = await callerAs(database.db, owner)
  await asOwner.schools.saveSettings({ name: 'Cora Academy', slug: 'cora-academy' })
  await asOwner.domains.add({ hostname: SCHOOL_HOST })
  const token = (await asOwner.domains.mine()).domain?.recordValue ?? ''
  const lookup = async (name: string) => (name === `_skillforge-verify.${SCHOOL_HOST}` ? [[token]] : [])
  expect(await checkSchoolDomain(database.db, owner.id, lookup, PUBLIC_URL)).toMatchObject({ verified: true })

  work = await mkdtemp(path.join(tmpdir(), 'caddy-school-'))
  httpPort = await freePort()
  httpsPort = await freePort()
  const config = path.join(work, 'Caddyfile')
  await writeFile(config, await testCaddyfile(new URL(server.baseUrl).host))
  caddy = spawn('caddy', ['run', '--config', config, '--adapter', 'caddyfile'], {
    env: { ...process.env, HOME: work, XDG_DATA_HOME: work, XDG_CONFIG_HOME: work },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  for (const stream of [caddy.stdout, caddy.stderr]) {
    stream?.setEncoding('utf8').on('data', (chunk: string) => {
      caddyOutput = (caddyOutput + chunk).slice(-20_000)
    })
  }
  await untilListening(httpsPort)
}, 60_000)

afterAll(async () => {
  if (caddy && caddy.exitCode === null) {
    const exited = new Promise((resolve) => caddy?.once('exit', resolve))
    caddy.kill('SIGTERM')
    await exited
  }
  await server?.stop()
  await database?.close()
  if (work) await rm(work, { recursive: true, force: true })
})

describe.skipIf(!caddyInstalled)('a school’s domain behind Caddy’s on-demand TLS', () => {
  it('issues a certificate for the verified school domain and serves the school’s page under it', async () => {
    const home = await httpsRequest(SCHOOL_HOST).catch((error: Error) => {
      throw new Error(`${error.message}\n${caddyOutput.slice(-3000)}`)
    })
    expect(home.san).toContain(`DNS:${SCHOOL_HOST}`)
    expect(home.issuer).toMatch(/Caddy Local Authority/)
    expect(home.status).toBe(302)
    expect(home.location).toBe('/s/cora-academy')
    // The school's data through Caddy under its name (the test server builds no pages in production mode).
    const input = encodeURIComponent(JSON.stringify({ slug: 'cora-academy' }))
    const page = await httpsRequest(SCHOOL_HOST, `/trpc/schools.page?input=${input}`)
    expect(page.status, page.body).toBe(200)
    expect(page.body).toContain('Cora Academy')
  })

  it('signs a learner in over HTTPS on the platform’s name with a Secure, host-only session; never by password on the school’s', async () => {
    const learner = await createUser(database.db)
    const cookie = await signInThrough('skillforge.example', learner.email, learner.password)
    expect(cookie).toMatch(/; Secure/i)
    expect(cookie).toMatch(/; HttpOnly/i)
    expect(cookie).not.toMatch(/domain=/i)
    const me = await httpsRequest('skillforge.example', '/trpc/auth.me', {
      headers: { cookie: cookie.split(';')[0] ?? '' },
    })
    expect(me.status).toBe(200)
    expect(me.body).toContain(learner.email)
    // Under the school's name a password is typed only on the platform's sign-in page (the hand-off), also via Caddy.
    const refused = await signInAnswer(SCHOOL_HOST, learner.email, learner.password)
    expect(refused.status).toBe(403)
    expect(refused.body).toContain('Passwords are entered only on our secure sign-in page')
    expect(refused.setCookie).toEqual([])
  })

  it('hands a sign-in from the school’s name to the platform’s and back, over HTTPS through Caddy', async () => {
    const learner = await createUser(database.db)
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
    const formHeaders = (origin: string, cookie?: string) => ({
      origin,
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
    })
    const postedTo = (html: string) => ({
      action: /<form method="post" action="([^"]+)"/.exec(html)?.[1],
      code: /name="code" value="([^"]+)"/.exec(html)?.[1] ?? '',
    })
    // 1. The school's log-in sends the browser to the platform's hand-off page, a verifier kept in a Secure cookie.
    const start = await httpsRequest(SCHOOL_HOST, '/auth/handoff/start?next=%2Fcourses')
    expect(start.status).toBe(302)
    const page = new URL(start.location ?? '')
    expect(page.origin).toBe(PUBLIC_URL)
    expect(page.pathname).toBe('/handoff')
    const verifier = start.setCookie.find((line) => line.startsWith('sf_handoff=')) ?? ''
    expect(verifier).toMatch(/; Secure/i)
    // 2. Signed in on the platform, the learner continues: a one-time code posted to the school's name over HTTPS.
    const platformCookie = (await signInThrough('skillforge.example', learner.email, learner.password)).split(';')[0]
    const issued = await httpsRequest('skillforge.example', '/auth/handoff', {
      method: 'POST',
      headers: formHeaders(PUBLIC_URL, platformCookie),
      body: form({ site: SCHOOL_HOST, challenge: page.searchParams.get('challenge') ?? '', next: '/courses' }),
    })
    expect(issued.status, issued.body).toBe(200)
    const toComplete = postedTo(issued.body)
    expect(toComplete.action).toBe(`https://${SCHOOL_HOST}/auth/handoff/complete`)
    // 3. The cross-site post carries no cookie: the school's name posts the code on to itself.
    const completed = await httpsRequest(SCHOOL_HOST, '/auth/handoff/complete', {
      method: 'POST',
      headers: formHeaders(PUBLIC_URL),
      body: form({ code: toComplete.code, next: '/courses' }),
    })
    const toFinish = postedTo(completed.body)
    expect(toFinish.action).toBe(`https://${SCHOOL_HOST}/auth/handoff/finish`)
    // 4. Same-origin, with the verifier: the school's own session, Secure and host-only, which reads the learner.
    const finished = await httpsRequest(SCHOOL_HOST, '/auth/handoff/finish', {
      method: 'POST',
      headers: formHeaders(`https://${SCHOOL_HOST}`, verifier.split(';')[0]),
      body: form({ code: toFinish.code, next: '/courses' }),
    })
    expect(finished.status).toBe(303)
    expect(finished.location).toBe('/courses')
    const session = finished.setCookie.find((line) => line.startsWith(`${SESSION_COOKIE}=`)) ?? ''
    expect(session).toMatch(/; Secure/i)
    expect(session).not.toMatch(/domain=/i)
    const me = await httpsRequest(SCHOOL_HOST, '/trpc/auth.me', { headers: { cookie: session.split(';')[0] ?? '' } })
    expect(me.body).toContain(learner.email)
  })

  it('issues no certificate for a name no school has proved', async () => {
    await expect(httpsRequest('stranger.example.test')).rejects.toThrow(/alert internal error/)
  })

  it('sends plain HTTP for the school domain to HTTPS', async () => {
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: httpPort, path: '/courses', headers: { host: SCHOOL_HOST } }, resolve)
        .on('error', reject)
    })
    answer.resume()
    expect(answer.statusCode).toBe(301)
    expect(answer.headers.location).toBe(`https://${SCHOOL_HOST}/courses`)
  })
})
