// How long we keep what (issue 28): the retention job (flows/retention.ts, 'privacy.retention') purges by these
// periods, and the privacy page lists them from the same constants, so the page cannot promise what the job does not do.

const DAY_MS = 24 * 60 * 60 * 1000

/** Days between asking to delete one's account and its erasure; signing in meanwhile offers to cancel. */
export const ACCOUNT_DELETION_COOL_OFF_DAYS = 14
export const ACCOUNT_DELETION_COOL_OFF_MS = ACCOUNT_DELETION_COOL_OFF_DAYS * DAY_MS
/** The reminder goes out this long before the erasure. */
export const ACCOUNT_DELETION_REMINDER_MS = DAY_MS

export interface RetentionRule {
  key: string
  /** What is purged, as the privacy page says it. */
  what: string
  days: number
}

/** Purged by the daily retention job once older than `days` (counted from when each record ended or was last used). */
export const RETENTION = {
  sessions: { key: 'sessions', what: 'Signed-in sessions, after they expire or you sign out', days: 0 },
  pendingLogins: { key: 'pendingLogins', what: 'Half-finished sign-ins waiting for a two-factor code', days: 1 },
  tokens: { key: 'tokens', what: 'Used or expired e-mail links and confirmation codes', days: 7 },
  knownDevices: { key: 'knownDevices', what: 'Devices you signed in from (for new-device notices)', days: 365 },
  mailBodies: { key: 'mailBodies', what: 'Copies of e-mails we sent you', days: 90 },
  unsubscribeLinks: { key: 'unsubscribeLinks', what: 'Unsubscribe links in course news e-mails we sent you', days: 90 },
  dataExports: { key: 'dataExports', what: 'Your “Download my data” archives (the records of asking, too)', days: 30 },
  carts: { key: 'carts', what: 'Items left in a cart and not bought', days: 180 },
  contactMessages: { key: 'contactMessages', what: 'Messages sent through the contact form', days: 730 },
  chats: { key: 'chats', what: 'Live chats with our support team, after they end', days: 730 },
} as const satisfies Record<string, RetentionRule>

export const retentionCutoff = (rule: RetentionRule, now: Date) => new Date(now.getTime() - rule.days * DAY_MS)

/** Kept by law or for others, whatever the rules above say (the privacy page lists these too). */
export const KEPT_RECORDS = [
  'Invoices and credit notes, unchanged, and order totals: 6 years after the end of the financial year (UK tax law)',
  'Creators’ earnings ledger and payouts: 6 years, keyed to the account number only after an account is deleted',
  'Audit records of staff actions: 6 years, with the account number only after an account is deleted',
] as const

/** Who processes personal data for us, and for what. */
export const PROCESSORS = [
  { name: 'Stripe', purpose: 'card payments, memberships and creators’ payouts', where: 'EU, UK and USA' },
  { name: 'PayPal', purpose: 'PayPal payments', where: 'EU and USA' },
  {
    name: 'Our e-mail provider (SMTP relay or Resend)',
    purpose: 'sending account and order e-mails',
    where: 'EU and USA',
  },
  { name: 'Our storage provider (S3-compatible)', purpose: 'uploaded files, videos and private archives', where: 'EU' },
  { name: 'Google and Facebook', purpose: 'signing in with their accounts, only when you choose to', where: 'USA' },
] as const
