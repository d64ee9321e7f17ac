// Where each kind of upload lives in storage. The upload routes name keys under these prefixes; the sweep of
// unreferenced uploads lists exactly these (never the rest of a bucket that may be shared).
export const UPLOAD_PREFIXES = {
  courseImages: 'courses/',
  avatars: 'avatars/',
} as const

export const ALL_UPLOAD_PREFIXES: readonly string[] = Object.values(UPLOAD_PREFIXES)
