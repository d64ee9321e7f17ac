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
