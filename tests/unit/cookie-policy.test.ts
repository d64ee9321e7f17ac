// The cookie policy (/cookies, src-shared/cookies.ts) names every cookie the server sets: a new cookie the policy does
// not describe fails here (three had been missed before the sign-up cookie came, decision 0134).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { privateCookie } from '../../src-server/kernel/private-cookie.ts'
import { COOKIES } from '../../src-shared/cookies.ts'

function serverSources(dir = 'src-server'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return serverSources(full)
    return entry.name.endsWith('.ts') ? [full] : []
  })
}

const constantsIn = (text: string) =>
  new Map([...text.matchAll(/const (\w+) = '([a-z_]+)'/g)].map((match) => [match[1]!, match[2]!] as const))

/** The names passed to reply.setCookie: a literal, a constant of the same file, or one exported by another. */
function cookiesSetByTheServer(): Set<string> {
  const sources = serverSources().map((file) => ({ file, text: readFileSync(file, 'utf8') }))
  const exported = new Map(
    sources.flatMap(({ text }) =>
      [...text.matchAll(/export const (\w+) = '([a-z_]+)'/g)].map((match) => [match[1]!, match[2]!] as const),
    ),
  )
  const names = new Set<string>()
  for (const { file, text } of sources) {
    const local = constantsIn(text)
    for (const call of text.matchAll(/\.setCookie\(\s*(?:'([a-z_]+)'|(\w+))/g)) {
      const name = call[1] ?? local.get(call[2]!) ?? exported.get(call[2]!)
      if (!name) throw new Error(`${file}: setCookie(${call[2]}) names a cookie this test cannot read`)
      names.add(name)
    }
  }
  return names
}

describe('the cookie policy', () => {
  it('makes every cookie the server sets private: HttpOnly, SameSite=Lax, Secure over HTTPS, one rule', () => {
    expect(privateCookie(true)).toEqual({ httpOnly: true, sameSite: 'lax', secure: true, path: '/' })
    expect(privateCookie(false, { path: '/auth/sso', maxAge: 600 })).toEqual({
      httpOnly: true,
      sameSite: 'lax',
      secure: false,
      path: '/auth/sso',
      maxAge: 600,
    })
    // Each file that sets or clears a cookie takes its options from privateCookie and spells none of its own.
    const setters = serverSources()
      .map((file) => ({ file, text: readFileSync(file, 'utf8') }))
      .filter(({ text }) => /\.(?:set|clear)Cookie\(/.test(text))
    expect(setters.length).toBeGreaterThanOrEqual(7)
    for (const { file, text } of setters) {
      expect(text, file).toContain('privateCookie(')
      expect(text, file).not.toMatch(/httpOnly\s*:|sameSite\s*:/)
    }
  })

  it('describes every cookie the server sets, and none it does not', () => {
    const set = cookiesSetByTheServer()
    expect(set.size).toBeGreaterThanOrEqual(8)
    const described = new Set<string>(COOKIES.flatMap((cookie) => cookie.names))
    expect([...set].filter((name) => !described.has(name)).sort(), 'set but not in the policy').toEqual([])
    expect([...described].filter((name) => !set.has(name)).sort(), 'in the policy but never set').toEqual([])
  })
})
