// What the shop says while its database is unreachable (the server answers 503 SERVICE_UNAVAILABLE).
export const OUTAGE = {
  title: 'Service temporarily unavailable',
  message: 'The service is temporarily unavailable. Please try again in a moment.',
} as const
