// How the client reads a failed call: outage (503) vs refusal (4xx) vs anything else, and which it retries.
import { TRPCClientError } from '@trpc/client'
import { describe, expect, it } from 'vitest'
import { errorToast } from '../../src-client/components/ui/toaster.tsx'
import {
  errorMessage,
  isClientError,
  isServiceUnavailable,
  refusalMessage,
  retryDelay,
  shouldRetryQuery,
} from '../../src-client/lib/errors.ts'
import { NO_CONNECTION, OUTAGE } from '../../src-shared/outage.ts'

function trpcError(code: string, httpStatus: number, message: string, zodError: unknown = null) {
  return TRPCClientError.from({ error: { message, code: -32603, data: { code, httpStatus, path: 'x.y', zodError } } })
}

const outage = trpcError('SERVICE_UNAVAILABLE', 503, OUTAGE.message)
const refusal = trpcError('NOT_FOUND', 404, 'No such invitation')
const crash = trpcError('INTERNAL_SERVER_ERROR', 500, 'boom')
const network = TRPCClientError.from(new TypeError('Failed to fetch'))

describe('reading errors', () => {
  it('tells an outage from a refusal and from a crash', () => {
    expect([outage, refusal, crash, network].map(isServiceUnavailable)).toEqual([true, false, false, false])
    expect([outage, refusal, crash, network].map(isClientError)).toEqual([false, true, false, false])
  })

  it('shows the server message of a refusal or an outage, else the caller wording', () => {
    expect(refusalMessage(refusal, 'fallback')).toBe('No such invitation')
    expect(refusalMessage(outage, 'fallback')).toBe(OUTAGE.message)
    expect(refusalMessage(crash, 'fallback')).toBe('fallback')
    expect(refusalMessage(new Error('not from the server'), 'fallback')).toBe('fallback')
  })

  it("prefers a zod field message to the error's own", () => {
    const invalid = trpcError('BAD_REQUEST', 400, 'Invalid input', {
      formErrors: [],
      fieldErrors: { email: ['Please enter a valid email'] },
    })
    expect(errorMessage(invalid)).toBe('Please enter a valid email')
  })

  it('shows a form-level zod message (a refinement of the whole input), never the issues as JSON', () => {
    // What the server sends for recordingInput's refinement: tRPC's message is the issues' JSON.
    const issues = [{ code: 'custom', path: [], message: 'Choose a lesson or a link, not both' }]
    const invalid = trpcError('BAD_REQUEST', 400, JSON.stringify(issues, null, 2), {
      formErrors: ['Choose a lesson or a link, not both'],
      fieldErrors: {},
    })
    expect(errorMessage(invalid)).toBe('Choose a lesson or a link, not both')
    expect(errorToast(invalid, 'Could not attach the recording')).toEqual({
      title: 'Could not attach the recording',
      description: 'Choose a lesson or a link, not both',
    })
  })

  it('says the server could not be reached when no answer came, not the browser’s “Failed to fetch”', () => {
    expect(errorMessage(network)).toBe(NO_CONNECTION)
    expect(errorMessage(network, 'Could not save')).toBe(NO_CONNECTION)
  })
})

describe('the toast of a failed action', () => {
  it("puts a refusal's reason under the caller's title, and nothing of a crash's", () => {
    const cancelled = trpcError('CONFLICT', 409, 'This session was cancelled')
    expect(errorToast(cancelled, 'Could not register')).toEqual({
      title: 'Could not register',
      description: 'This session was cancelled',
    })
    expect(errorToast(crash, 'Could not register')).toEqual({ title: 'Could not register' })
    expect(errorToast(network, 'Could not register')).toEqual({ title: 'Could not register' })
    expect(errorToast(cancelled, 'Could not register', 'Try another date')).toEqual({
      title: 'Could not register',
      description: 'Try another date',
    })
  })
  it("gives the server's message alone without a title, and the outage wording in an outage", () => {
    expect(errorToast(refusal)).toEqual({ title: 'No such invitation' })
    expect(errorToast(outage, 'Could not register')).toEqual({ title: OUTAGE.title, description: OUTAGE.message })
  })
})

describe('retrying queries', () => {
  it('never retries a refusal; retries an outage, a crash or a lost connection twice', () => {
    expect(shouldRetryQuery(0, refusal)).toBe(false)
    for (const error of [outage, crash, network]) {
      expect([0, 1, 2].map((failures) => shouldRetryQuery(failures, error))).toEqual([true, true, false])
    }
  })

  it('backs off: 1 s, 2 s, 4 s, at most 8 s', () => {
    expect([0, 1, 2, 3, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 8000])
  })
})
