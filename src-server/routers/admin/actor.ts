import type { SessionUser } from '../../auth/types.ts'

/** Who the audit log names for a change. */
export const actorOf = (user: SessionUser) => ({ id: user.id, email: user.email })
