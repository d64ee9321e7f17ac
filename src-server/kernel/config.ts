// What the server is configured with beyond the database: settings procedures and routes read (AppConfig), and
// what createServer hands every plain Fastify route (HttpDeps). Types only, so any layer may import them.

import type { CreatorLimitOverrides } from '../../src-shared/creator-plans.ts'
import type { ChatHours } from '../../src-shared/live-chat.ts'
import type { ResolveSession } from '../auth/types.ts'
import type { PaymentsConfig } from '../payments/config.ts'
import type { FileStorage } from '../storage/storage.ts'
import type { DB } from './db.ts'

/** Settings procedures need beyond the database (cookie flags, absolute links in e-mails). */
export interface AppConfig {
  cookieSecure: boolean
  publicUrl: string
  /** Stripe, PayPal and bank settings; absent means card and PayPal are off (see payments/config.ts). */
  payments?: PaymentsConfig
  /** Production: unexpected errors answer a generic message and the request id, never their own text. */
  hideErrorDetails?: boolean
  /** Largest lesson video upload in bytes (LESSON_VIDEO_MAX_BYTES; 200 MB when unset). */
  lessonVideoMaxBytes?: number
  /** Creator plan limits changed from /pricing's (CREATOR_STORAGE_LIMIT_BYTES: a small storage limit in tests). */
  creatorLimits?: CreatorLimitOverrides
  /** How mail leaves: over SMTP, or printed and kept in the outbox (no SMTP_URL). */
  mailDelivery: 'smtp' | 'log'
  /** The OAuth providers with both a client id and a secret: the only sign-in buttons the client shows. */
  oauthProviders: OAuthProviderName[]
  /** STAFF_2FA: whether admins and owners must have a second factor before using the staff area. */
  staffTwoFactor: 'required' | 'optional'
  /** TWO_FACTOR_KEY decoded: seals TOTP keys at rest (absent: stored as they are). */
  twoFactorKey?: Uint8Array
  /** TXT lookups for schools' domain checks (DNS_SERVERS; decision 0063); the system's resolver when absent. */
  txtLookup?: (name: string) => Promise<string[][]>
  /** SSO_HTTP_ISSUERS=loopback (tests): a school's OpenID provider may be plain http on 127.0.0.1 (else https only). */
  ssoHttpIssuers?: 'loopback'
  /** Webhook endpoints on loopback and private addresses allowed (not in production; decision 0061). */
  webhooksAllowPrivate?: boolean
  /** LIVE_CHAT_HOURS: when live chat is staffed (src-shared/live-chat.ts); /contact's Mon-Fri 9-5 GMT when absent. */
  liveChatHours?: ChatHours
}

export type OAuthProviderName = 'google' | 'facebook'

export const defaultAppConfig: AppConfig = {
  cookieSecure: false,
  publicUrl: 'http://localhost:3000',
  mailDelivery: 'log',
  oauthProviders: [],
  // The same default as the server's (STAFF_2FA); the test run sets STAFF_2FA=optional (vitest.config.ts).
  staffTwoFactor: process.env.STAFF_2FA === 'optional' ? 'optional' : 'required',
}

/** What plain routes (uploads, OAuth, webhooks) get: the same database, storage, settings and sessions as tRPC. */
export interface HttpDeps {
  db: DB
  storage: FileStorage
  config: AppConfig
  resolveSession: ResolveSession
}
