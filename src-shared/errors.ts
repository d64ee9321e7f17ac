// Error wording shared by the server and the client.

/** Shown while our own database is unreachable (tRPC code SERVICE_UNAVAILABLE, HTTP 503 with Retry-After). */
export const SERVICE_UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again in a moment.'

/** Shown while file storage (the bucket) fails: HTTP 503 with Retry-After, tRPC SERVICE_UNAVAILABLE. */
export const STORAGE_UNAVAILABLE_MESSAGE = 'Files cannot be saved or read just now. Please try again in a moment.'

/** Production's answer to an unexpected failure; the detail goes to the log under the request id. */
export const INTERNAL_ERROR_MESSAGE = 'Something went wrong'

/** Any text input holding a NUL byte (never typed by a person; PostgreSQL cannot store it). */
export const NUL_CHARACTER_MESSAGE = 'Text must not contain NUL (\\u0000) characters'
