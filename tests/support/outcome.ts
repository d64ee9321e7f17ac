import { TRPCError } from '@trpc/server'
import { expect } from 'vitest'

// What a call ended with, as one string a test can compare: 'OK', or the error's message (a procedure's refusal).
export function messageOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'OK',
    (error: Error) => error.message,
  )
}

/** 'OK', or the refusal as 'CODE: message' (a tRPC error's code, e.g. 'FORBIDDEN: …'). */
export function refusalOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'OK',
    (error: Error & { code?: string }) => `${error.code ?? error.name}: ${error.message}`,
  )
}

/** The tRPC error a call was refused with (the test fails when it went through, or failed another way). */
export async function trpcRefusal(promise: Promise<unknown>): Promise<TRPCError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(TRPCError)
  return error as TRPCError
}
