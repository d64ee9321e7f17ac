// The users columns a SessionUser is made of, and the one mapping from such a row: the session check, auth.me and
// the team list read the same columns.
import type { Role } from '../../src-shared/roles.ts'
import type { SessionUser } from './types.ts'

export const SESSION_USER_COLUMNS = [
  'users.id',
  'users.email',
  'users.role',
  'users.first_name',
  'users.last_name',
  'users.avatar_url',
] as const

export interface SessionUserRow {
  id: string
  email: string
  role: Role
  first_name: string
  last_name: string
  avatar_url: string | null
}

export function toSessionUser(row: SessionUserRow): SessionUser {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    firstName: row.first_name,
    lastName: row.last_name,
    avatarUrl: row.avatar_url,
  }
}
