// Which calls the browser's tRPC client sends as a POST although they are queries (decisions 0129, 0154): those whose
// input carries a token or a person's address, which a GET would put in the request's address.
import { describe, expect, it } from 'vitest'
import { carriesPrivateInput } from '../../src-client/lib/trpc.ts'

describe('carriesPrivateInput', () => {
  it('picks a query whose input has a token', () => {
    expect(carriesPrivateInput({ type: 'query', input: { token: 'a-mailed-invitation-token' } })).toBe(true)
  })

  it('picks a query whose input names a recipient, and not one whose recipient is left out', () => {
    expect(carriesPrivateInput({ type: 'query', input: { page: 1, recipient: 'someone@example.test' } })).toBe(true)
    expect(carriesPrivateInput({ type: 'query', input: { page: 1, recipient: undefined } })).toBe(false)
  })

  it('picks the orders’, service orders’ and support inbox’s Find (a reference or a customer’s address)', () => {
    expect(carriesPrivateInput({ type: 'query', input: { page: 1, lookup: 'someone@example.test' } })).toBe(true)
    expect(carriesPrivateInput({ type: 'query', input: { page: 1, buyer: 'someone@example.test' } })).toBe(true)
    expect(carriesPrivateInput({ type: 'query', input: { page: 1, sender: 'someone@example.test' } })).toBe(true)
  })

  it('leaves every other call to the GET link (mutations are POSTs already)', () => {
    expect(carriesPrivateInput({ type: 'query', input: { courseId: 'c1', page: 2 } })).toBe(false)
    expect(carriesPrivateInput({ type: 'query', input: undefined })).toBe(false)
    expect(carriesPrivateInput({ type: 'query', input: null })).toBe(false)
    expect(carriesPrivateInput({ type: 'query', input: 'token' })).toBe(false)
    expect(carriesPrivateInput({ type: 'mutation', input: { token: 'a-mailed-invitation-token' } })).toBe(false)
  })
})
