// src-server/kernel/redact.ts: what the access log, the error logs and the audit log keep of a URL or a record.
import { describe, expect, it } from 'vitest'
import { isSecretName, REDACTED, redactSecrets, redactUrl, redactUrlsIn } from '../../src-server/kernel/redact.ts'

const trpcInput = (input: unknown) => encodeURIComponent(JSON.stringify(input))

describe('isSecretName', () => {
  it.each([
    'token',
    'code',
    'state',
    'password',
    'passwd',
    'pass',
    'session_id',
    'secret',
    'key',
    'api_key',
    'apiKey',
    'APIKey',
    'signature',
    'X-Amz-Signature',
    'X-Amz-Credential',
    'sig',
    'otp',
    'auth',
    'Authorization',
    'access_token',
    'refresh_token',
    'id_token',
    'reset_token',
    'resettoken',
    'newPassword',
    'confirm-password',
    'TOKEN',
  ])('%s is secret', (name) => {
    expect(isSecretName(name)).toBe(true)
  })

  it.each([
    'page',
    'status',
    'redirect',
    'email',
    'author',
    'passenger',
    'keyboard',
    'statement',
    'barcode',
    'input',
    'batch',
  ])('%s is not', (name) => {
    expect(isSecretName(name)).toBe(false)
  })
})

describe('redactUrl', () => {
  it('leaves an address without a query as it is', () => {
    expect(redactUrl('/courses/intro-to-sql')).toBe('/courses/intro-to-sql')
    expect(redactUrl('/courses?search=sql&page=2')).toBe('/courses?search=sql&page=2')
  })

  it('redacts the tokens of mailed links and the OAuth callback, keeping the other parameters', () => {
    expect(redactUrl('/verify-email?token=abc123def')).toBe('/verify-email?token=[redacted]')
    expect(redactUrl('/admin/accept-invite?token=abc123def')).toBe('/admin/accept-invite?token=[redacted]')
    expect(redactUrl('/reset-password?email=a%40b.test&token=abc123def')).toBe(
      '/reset-password?email=a%40b.test&token=[redacted]',
    )
    expect(redactUrl('/api/auth/google/callback?code=4%2F0Ab&state=xyz&scope=email')).toBe(
      '/api/auth/google/callback?code=[redacted]&state=[redacted]&scope=email',
    )
    expect(redactUrl('/payment-success?session_id=cs_test_123')).toBe('/payment-success?session_id=[redacted]')
  })

  it('matches names case-insensitively and on word parts, also percent-encoded ones', () => {
    expect(redactUrl('https://bucket.test/a.png?X-Amz-Signature=f00&X-Amz-Date=20250101')).toBe(
      'https://bucket.test/a.png?X-Amz-Signature=[redacted]&X-Amz-Date=20250101',
    )
    expect(redactUrl('/x?apiKey=k1&Reset_Token=t1&pass%77ord=p1&new+password=p2')).toBe(
      '/x?apiKey=[redacted]&Reset_Token=[redacted]&pass%77ord=[redacted]&new+password=[redacted]',
    )
  })

  it('redacts every repetition, an empty value and a name without a value stays as it is', () => {
    expect(redactUrl('/x?token=a&token=b&token=&flag')).toBe(
      '/x?token=[redacted]&token=[redacted]&token=[redacted]&flag',
    )
  })

  it('redacts secrets in an address carried as a value (a return URL)', () => {
    const url = `/login?redirect=${encodeURIComponent('/admin/accept-invite?token=abc123def&x=1')}`
    expect(redactUrl(url)).toBe(
      `/login?redirect=${encodeURIComponent('/admin/accept-invite?token=')}[redacted]%26x%3D1`,
    )
  })

  it('never throws on malformed percent-encoding, and redacts what it cannot read', () => {
    expect(redactUrl('/x?page=%E0%A4%A&tok%en=abc&search=ok')).toBe('/x?page=[redacted]&tok%en=[redacted]&search=ok')
    expect(redactUrl('/x?%%%')).toBe('/x?%%%')
    expect(redactUrl('?')).toBe('?')
  })

  it('keeps a tRPC GET input readable with its secret fields redacted, at any depth and in batches', () => {
    const single = `/trpc/auth.verifyEmail?input=${trpcInput({ json: { token: 'abc123def' } })}`
    expect(redactUrl(single)).toBe('/trpc/auth.verifyEmail?input={"json":{"token":"[redacted]"}}')
    const batch = `/trpc/team.describeInvitation,catalog.list?batch=1&input=${trpcInput({
      0: { json: { token: 'abc123def' } },
      1: { json: { search: 'sql', filters: [{ state: 'x' }] } },
    })}`
    expect(redactUrl(batch)).toBe(
      '/trpc/team.describeInvitation,catalog.list?batch=1&input={"0":{"json":{"token":"[redacted]"}},"1":{"json":{"search":"sql","filters":[{"state":"[redacted]"}]}}}',
    )
  })

  it('redacts a whole tRPC input it cannot parse', () => {
    expect(redactUrl('/trpc/auth.verifyEmail?input=%7B%22token%22%3A%22abc')).toBe(
      '/trpc/auth.verifyEmail?input=[redacted]',
    )
    expect(redactUrl('/trpc/auth.verifyEmail?input=%E0%A4%A')).toBe('/trpc/auth.verifyEmail?input=[redacted]')
  })

  it('leaves an `input` parameter of an address outside /trpc/ alone', () => {
    expect(redactUrl('/courses?input=sql')).toBe('/courses?input=sql')
  })
})

describe('redactUrlsIn and redactSecrets', () => {
  it('redacts the links inside a text and leaves prose alone', () => {
    expect(redactUrlsIn('Invalid URL: http://x.test/reset-password?token=abc (GET)')).toBe(
      'Invalid URL: http://x.test/reset-password?token=[redacted] (GET)',
    )
    expect(redactUrlsIn('Route GET:/verify-email?token=abc not found')).toBe(
      'Route GET:/verify-email?token=[redacted] not found',
    )
    expect(redactUrlsIn('Why? See #3, and/or? ok=1')).toBe('Why? See #3, and/or? ok=1')
  })

  it('replaces secret-named fields at any depth and the secrets of links in strings', () => {
    const record = {
      email: 'a@b.test',
      password: 'hunter22',
      nested: [{ accessToken: 't', link: 'https://x.test/verify-email?token=abc' }],
      createdAt: new Date(0),
      count: 2,
      none: null,
    }
    expect(redactSecrets(record)).toEqual({
      email: 'a@b.test',
      password: REDACTED,
      nested: [{ accessToken: REDACTED, link: 'https://x.test/verify-email?token=[redacted]' }],
      createdAt: new Date(0),
      count: 2,
      none: null,
    })
  })

  it('keeps the names it is told to keep', () => {
    expect(redactSecrets({ code: '23505', cause: { code: 'ECONNREFUSED', token: 't' } }, new Set(['code']))).toEqual({
      code: '23505',
      cause: { code: 'ECONNREFUSED', token: REDACTED },
    })
  })
})
