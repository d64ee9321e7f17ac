// Where each kind of upload lives in storage. The upload routes name keys under these prefixes; the sweep of
// unreferenced uploads lists exactly these (never the rest of a bucket that may be shared).
import { PRIVATE_PREFIX } from './storage.ts'

export const UPLOAD_PREFIXES = {
  courseImages: 'courses/',
  avatars: 'avatars/',
  /** A school's white-label logo (decision 0063). */
  brandLogos: 'brands/',
  /** Private (never public, see PRIVATE_PREFIX): brief, message and delivery files of service orders. */
  serviceOrderFiles: `${PRIVATE_PREFIX}service-orders/`,
  /** Private too: lesson videos and attachments, served only by the learning routes after the access check. */
  lessons: `${PRIVATE_PREFIX}lessons/`,
  /** Private too: files attached to applications to teach (a CV or a sample video), read by staff and the applicant. */
  applications: `${PRIVATE_PREFIX}applications/`,
  /** Private too: attachments of messages between members and instructors, read by the thread's two sides. */
  instructorMessages: `${PRIVATE_PREFIX}instructor-messages/`,
  /**
   * Private too: people's data exports (a ZIP of their data, flows/data-export.ts), kept by their row: swept once no
   * row names them (the person erased while storage failed to remove the file), so no copy outlives its person.
   */
  dataExports: `${PRIVATE_PREFIX}exports/`,
} as const

export const ALL_UPLOAD_PREFIXES: readonly string[] = Object.values(UPLOAD_PREFIXES)

/** Where lesson videos and attachments are stored (uploaded by http/lesson-uploads.ts, saved by catalog/). */
export const LESSON_VIDEO_PREFIX = `${UPLOAD_PREFIXES.lessons}videos/`
export const LESSON_FILE_PREFIX = `${UPLOAD_PREFIXES.lessons}files/`
