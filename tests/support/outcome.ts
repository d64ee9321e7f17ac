// What a call ended with, as one string a test can compare: 'OK', or the error's message (a procedure's refusal).
export function messageOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'OK',
    (error: Error) => error.message,
  )
}
