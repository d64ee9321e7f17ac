// A value made once, on its first use: a module kept out of a web node's start-up (decision 0165) and what is built
// from it. A failed making is tried again by the next use.
export function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined
  return () => {
    made ??= make().catch((error: unknown) => {
      made = undefined
      throw error
    })
    return made
  }
}
