// What an API key may do (decision 0060): one scope per resource and access, named 'resource:read' or
// 'resource:write'. Shared by the studio's key form and the server's checks; no zod here (the studio page imports it).
export const API_SCOPES = [
  'courses:read',
  'lessons:read',
  'learners:read',
  'enrolments:read',
  'enrolments:write',
  'orders:read',
  'earnings:read',
] as const

export type ApiScope = (typeof API_SCOPES)[number]

export const API_SCOPE_LABELS: Record<ApiScope, string> = {
  'courses:read': 'Courses — read',
  'lessons:read': 'Lessons — read',
  'learners:read': 'Learners — read',
  'enrolments:read': 'Enrolments — read',
  'enrolments:write': 'Enrolments — grant and revoke',
  'orders:read': 'Orders — read',
  'earnings:read': 'Earnings — read',
}

/**
 * The scopes a key may carry, by its holder's role in the school (decision 0060): the owner any; a finance member
 * orders and earnings, read only; other roles hold no keys. A key's scopes are cut to its holder's current role on
 * every request, so a changed role narrows its keys and a holder who left the team has none.
 */
export function apiScopesForRole(role: string | null): readonly ApiScope[] {
  if (role === 'owner') return API_SCOPES
  if (role === 'finance') return ['orders:read', 'earnings:read']
  return []
}

/** Days a new key lives, offered in the form; null: no expiry. */
export const API_KEY_EXPIRY_DAYS = [30, 90, 365, null] as const
