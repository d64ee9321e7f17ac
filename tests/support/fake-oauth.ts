// Fakes the Google and Facebook token and profile endpoints at the fetch layer (Arctic and our profile calls
// use the global fetch); every other request goes through untouched.
import { vi } from 'vitest'

export interface FakeIdentity {
  id: string
  email: string | null
  emailVerified?: boolean
  firstName?: string
  lastName?: string
}

export interface FakeOAuth {
  /** Codes the token endpoints accept, each mapped to the identity its access token reveals. */
  codes: Map<string, FakeIdentity>
  /** Bodies the token endpoints received. */
  tokenRequests: URLSearchParams[]
  /** Codes whose exchange the token endpoints take and never answer (a provider that hangs). */
  hangingCodes: Set<string>
  restore(): void
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

export function fakeOAuthProviders(): FakeOAuth {
  const codes = new Map<string, FakeIdentity>()
  const tokens = new Map<string, FakeIdentity>()
  const tokenRequests: URLSearchParams[] = []
  const hangingCodes = new Set<string>()
  const realFetch = globalThis.fetch
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init)
    const url = new URL(request.url)
    const isToken =
      url.href === 'https://oauth2.googleapis.com/token' ||
      url.href === 'https://graph.facebook.com/v16.0/oauth/access_token'
    if (isToken) {
      const body = new URLSearchParams(await request.text())
      tokenRequests.push(body)
      if (hangingCodes.has(body.get('code') ?? '')) return new Promise<Response>(() => {})
      const identity = codes.get(body.get('code') ?? '')
      if (!identity) return json(400, { error: 'invalid_grant', error_description: 'Bad code' })
      const accessToken = `at-${Math.random().toString(36).slice(2)}`
      tokens.set(accessToken, identity)
      return json(200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600 })
    }
    if (url.href === 'https://openidconnect.googleapis.com/v1/userinfo') {
      const identity = tokens.get(request.headers.get('authorization')?.replace('Bearer ', '') ?? '')
      if (!identity) return json(401, { error: 'invalid_token' })
      return json(200, {
        sub: identity.id,
        email: identity.email,
        email_verified: identity.emailVerified ?? true,
        given_name: identity.firstName ?? 'Gia',
        family_name: identity.lastName ?? 'Google',
      })
    }
    if (url.origin === 'https://graph.facebook.com' && url.pathname === '/me') {
      const identity = tokens.get(url.searchParams.get('access_token') ?? '')
      if (!identity) return json(400, { error: { message: 'Invalid OAuth access token' } })
      return json(200, {
        id: identity.id,
        ...(identity.email ? { email: identity.email } : {}),
        first_name: identity.firstName ?? 'Fay',
        last_name: identity.lastName ?? 'Book',
      })
    }
    return realFetch(input, init)
  })
  return { codes, tokenRequests, hangingCodes, restore: () => spy.mockRestore() }
}
