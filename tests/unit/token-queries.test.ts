// Which calls the browser's tRPC client sends as a POST although they are queries (decision 0129): those whose input
// carries a token, which a GET would put in the request's address.
import { describe, expect, it } from 'vitest'
import { carriesToken } from '../../src-client/lib/trpc.ts'

describe('carriesToken', () => {
  it('picks a query whose input has a token', () => {
    expect(carriesToken({ type: 'query', input: { token: 'a-mailed-invitation-token' } })).toBe(true)
  })

  it('leaves every other call to the GET link (mutations are POSTs already)', () => {
    expect(carriesToken({ type: 'query', input: { courseId: 'c1', page: 2 } })).toBe(false)
    expect(carriesToken({ type: 'query', input: undefined })).toBe(false)
    expect(carriesToken({ type: 'query', input: null })).toBe(false)
    expect(carriesToken({ type: 'query', input: 'token' })).toBe(false)
    expect(carriesToken({ type: 'mutation', input: { token: 'a-mailed-invitation-token' } })).toBe(false)
  })
})
