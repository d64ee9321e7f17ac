// Where each kind of upload lives in storage. The upload routes name keys under these prefixes; the sweep of
// unreferenced uploads lists exactly these (never the rest of a bucket that may be shared).
export const UPLOAD_PREFIXES = {
  courseImages: 'courses/',
  avatars: 'avatars/',
  /** Lesson videos and attachments: private, served only by the learning routes after the access check. */
  lessons: 'lessons/',
} as const

/** What the sweep of unreferenced uploads lists: images only (lesson files are referenced by lesson rows). */
export const ALL_UPLOAD_PREFIXES: readonly string[] = [UPLOAD_PREFIXES.courseImages, UPLOAD_PREFIXES.avatars]
