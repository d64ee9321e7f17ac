// The retention job ('privacy.retention', daily): each kind of record is purged by its owner once older than its
// period in src-shared/retention.ts — the same constants the privacy page lists, so page and job cannot disagree.
import { RETENTION, type RetentionRule, retentionCutoff } from '../../src-shared/retention.ts'
import { purgeStaleDevices } from '../auth/devices.ts'
import { purgeExpiredPendingLogins } from '../auth/pending-login.ts'
import { purgeExpiredSessions } from '../auth/session.ts'
import { purgeSpentTokens } from '../auth/tokens.ts'
import { purgeStaleCartItems } from '../cart/repository.ts'
import { purgeOldContactMessages } from '../contact/messages.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { purgeEndedChats } from '../live-chat/conversations.ts'
import { purgeSettledMail } from '../mail/repository.ts'
import { purgeOldUnsubscribeLinks } from '../mail/unsubscribe-links.ts'
import { purgeFinishedExports } from '../privacy/exports.ts'

type RuleKey = keyof typeof RETENTION

const PURGES: { [K in RuleKey]: (db: DB, before: Date) => Promise<number> } = {
  sessions: purgeExpiredSessions,
  pendingLogins: purgeExpiredPendingLogins,
  tokens: purgeSpentTokens,
  knownDevices: purgeStaleDevices,
  mailBodies: purgeSettledMail,
  unsubscribeLinks: purgeOldUnsubscribeLinks,
  dataExports: purgeFinishedExports,
  carts: purgeStaleCartItems,
  contactMessages: purgeOldContactMessages,
  chats: purgeEndedChats,
}

/** Purges every kind past its period; how many rows of each went. Each purge is one statement: a rerun is safe. */
export async function runRetention(db: DB, now = clock.now()): Promise<Record<RuleKey, number>> {
  const counts = {} as Record<RuleKey, number>
  for (const key of Object.keys(PURGES) as RuleKey[]) {
    const rule: RetentionRule = RETENTION[key]
    counts[key] = await PURGES[key](db, retentionCutoff(rule, now))
  }
  return counts
}
