// What the shop says while its database is unreachable (the server answers 503 SERVICE_UNAVAILABLE).
import { SERVICE_UNAVAILABLE_MESSAGE } from './errors.ts'

export const OUTAGE = {
  title: 'Service temporarily unavailable',
  message: SERVICE_UNAVAILABLE_MESSAGE,
} as const

/** What a call that got no answer at all says (the connection dropped, or the server is not there). */
export const NO_CONNECTION = "Can't reach the server. Check your connection and try again."
