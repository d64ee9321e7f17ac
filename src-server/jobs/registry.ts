// Every queue with its retry policy, every handler, every schedule and every loop that feeds a queue, in one
// place: web nodes create the same queues with the same options (so they can enqueue), worker nodes also work.

import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import type { ChatHours } from '../../src-shared/live-chat.ts'
import { expireAbandonedCheckouts } from '../flows/abandoned-checkouts.ts'
import { runAccountDeletions } from '../flows/account-erasure.ts'
import { runAnalyticsRollup } from '../flows/analytics-rollup.ts'
import { sendCartReminders } from '../flows/checkout-recovery.ts'
import { releaseAllDueHolds } from '../flows/creator-earnings.ts'
import { DEFAULT_PAYOUT_THRESHOLD_MINOR, payoutMonthOf, runPayouts } from '../flows/creator-payouts.ts'
import { sweepAbandonedVideoUploads } from '../flows/creator-video-uploads.ts'
import { buildPendingExports } from '../flows/data-export.ts'
import { sweepDripUnlocks } from '../flows/drip-unlocks.ts'
import { syncStripeCustomerEmails } from '../flows/email-change.ts'
import { sendDueGifts } from '../flows/gift-delivery.ts'
import { sendMessageDigests } from '../flows/instructor-messages-digest.ts'
import { sendQuestionDigests } from '../flows/lesson-questions-digest.ts'
import { passUnjoinedChatsToInbox } from '../flows/live-chat.ts'
import { announceLiveSessions, sendLiveReminders } from '../flows/live-sessions.ts'
import { runMembershipSchedule } from '../flows/membership-renewals.ts'
import { DEFAULT_PREMIUM_POOL_BASIS_POINTS, runDuePremiumPools } from '../flows/premium-pool.ts'
import { settleDueProcessorFees } from '../flows/processor-fees.ts'
import { closeExpiredQuizAttempts } from '../flows/quiz-taking.ts'
import { runRetention } from '../flows/retention.ts'
import { recheckSchoolDomains } from '../flows/school-domain.ts'
import { recheckSsoDomainProofs } from '../flows/sso-domain-proofs.ts'
import { startTranscodeRelay, transcodeUpload } from '../flows/video-transcoding.ts'
import { attemptWebhookDelivery, relayWebhookDeliveries } from '../flows/webhook-delivery.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { repeatEvery } from '../kernel/repeat.ts'
import { deliverOutboxMail, type MailDeps, markUndeliverable } from '../mail/delivery.ts'
import { startOutboxRelay } from '../mail/relay.ts'
import type { StripeApi } from '../payments/stripe.ts'
import { autoCompleteDeliveries } from '../service-orders/delivery.ts'
import type { Ffmpeg } from '../storage/ffmpeg.ts'
import { sweepStaleStaging } from '../storage/staged-upload.ts'
import type { FileStorage } from '../storage/storage.ts'
import { sweepUnreferencedUploads, UPLOAD_SWEEP_MIN_AGE_MS } from '../storage/sweep.ts'
import type { TusFiles } from '../storage/tus-store.ts'
import {
  type JobHandler,
  type JobQueue,
  jobGone,
  type QueueOptions,
  type ScheduleOf,
  type WorkerOptions,
} from './queue.ts'
import { attemptOf } from './retry.ts'

/** Job name → the data its jobs carry. */
export type Jobs = {
  /** Deliver one mail_outbox row. */
  'mail.send': { outboxId: string }
  /** Dead letters of 'mail.send': its tries ran out without the row being settled. */
  'mail.undeliverable': { outboxId: string }
  /** Delete uploads no row refers to any more (older than a day). */
  'storage.sweep': Record<string, never>
  /** Trial and renewal reminders, renewal orders of manual memberships, lapses (flows/membership-renewals.ts). */
  'membership.schedule': Record<string, never>
  /** Complete service orders whose delivery the buyer left unanswered for N days. */
  'service-orders.auto-complete': Record<string, never>
  /** Expire card checkouts left unpaid for 24 hours (their Stripe sessions too). */
  'orders.expire': Record<string, never>
  /** Move creators' shares whose 30-day refund window has passed from pending to available. */
  'earnings.release-holds': Record<string, never>
  /** The month's payouts to creators (flows/creator-payouts.ts runPayouts): safe on several workers at once. */
  'earnings.payouts': Record<string, never>
  /** Build the data exports people asked for (flows/data-export.ts), and remove those past their 7 days. */
  'privacy.exports': Record<string, never>
  /**
   * The Premium pool of the month that ended (and of any closed month a missed run left), split among included
   * courses by minutes watched (flows/premium-pool.ts).
   */
  'earnings.premium-pool': Record<string, never>
  /** Grade timed quiz attempts left open past their limit, as submitted at it (flows/quiz-taking.ts). */
  'quizzes.close-expired': Record<string, never>
  /** Take Stripe's fee from creators' shares of card orders whose fee Stripe had not reported yet (decision 0047). */
  'earnings.processor-fees': Record<string, never>
  /** Gift e-mails whose send date came (flows/gift-delivery.ts): each sent once, however often this runs. */
  'gifts.send': Record<string, never>
  /** One reminder about a checkout left unpaid, for buyers who ticked it (flows/checkout-recovery.ts). */
  'cart-reminders.send': Record<string, never>
  /** Mail learners whose dripped course sections opened (flows/drip-unlocks.ts), each once. */
  'learning.drip-unlocks': Record<string, never>
  /** Instructors' daily digest of the previous day's questions under lessons (flows/lesson-questions-digest.ts). */
  'learning.question-digest': Record<string, never>
  /** Reminders of account deletions due tomorrow, and the erasure of accounts whose cool-off ended (decision 0053). */
  'privacy.account-deletions': Record<string, never>
  /** Purge what is past its retention period (src-shared/retention.ts, listed on the privacy page). */
  'privacy.retention': Record<string, never>
  /** The Stripe customers of accounts that moved to another e-mail address get it too (decision 0157). */
  'account.stripe-email': Record<string, never>
  /** The daily digest of unread messages to and from instructors, for those who chose it (issue 34). */
  'messages.digest': Record<string, never>
  /**
   * Live sessions' reminders an hour before the start (flows/live-sessions.ts): each seat holder once; and a newly
   * scheduled session's announcement to its course's holders, once (decision 0142).
   */
  'live.reminders': Record<string, never>
  /** Out of the chat's hours, chats nobody joined go to the support inbox as messages (flows/live-chat.ts, 0101). */
  'live-chat.to-inbox': Record<string, never>
  /** Roll up finished days' sales and the changed courses' progress snapshots (analytics/rollup.ts); idempotent. */
  'analytics.rollup': Record<string, never>
  /** HLS renditions and a poster of one stored lesson video (flows/video-transcoding.ts, decision 0064). */
  'video.transcode': { uploadId: string }
  /** One attempt at one webhook delivery (flows/webhook-delivery.ts); its own back-off schedules the next. */
  'webhooks.deliver': { deliveryId: string }
  /** Look verified SSO e-mail domain proofs up again; lapse those gone past the grace (decision 0091). */
  'sso.domain-recheck': Record<string, never>
  /** Look verified custom domains up again; lapse those gone past the grace (decision 0063, as the SSO proofs). */
  'domains.recheck': Record<string, never>
}
export type JobName = keyof Jobs

export const MAIL_MAX_ATTEMPTS = 6

export const queues: { [N in JobName]: QueueOptions } = {
  // Six tries; the retries wait 30–60 s, 1–2 min, 2–4, 4–8 and 8–16 min (pg-boss's jittered back-off).
  'mail.send': {
    retryLimit: MAIL_MAX_ATTEMPTS - 1,
    retryDelay: 30,
    retryBackoff: true,
    retryDelayMax: 3600,
    // A worker that dies mid-send stops its heartbeat; its job is retried without waiting for expiry.
    heartbeatSeconds: 10,
    expireInSeconds: 300,
    deadLetter: 'mail.undeliverable',
  },
  'mail.undeliverable': { retryLimit: 5, retryDelay: 60 },
  'storage.sweep': { retryLimit: 2, retryDelay: 600, expireInSeconds: 3600 },
  'membership.schedule': { retryLimit: 2, retryDelay: 300, expireInSeconds: 1800 },
  'service-orders.auto-complete': { retryLimit: 2, retryDelay: 300, expireInSeconds: 600 },
  'orders.expire': { retryLimit: 1, retryDelay: 300, expireInSeconds: 600 },
  'earnings.release-holds': { retryLimit: 2, retryDelay: 300, expireInSeconds: 1800 },
  // A run that failed (Stripe down) is retried; each retry re-sends only the payouts not paid, with the same keys.
  'earnings.payouts': { retryLimit: 3, retryDelay: 900, retryBackoff: true, expireInSeconds: 3600 },
  // Each run claims a few pending exports; a failed build stays pending (up to 3 tries) for the next minute's run.
  'privacy.exports': { retryLimit: 0, expireInSeconds: 900 },
  // Idempotent per month and currency: a retry records only what the failed run did not.
  'earnings.premium-pool': { retryLimit: 3, retryDelay: 300, expireInSeconds: 1800 },
  'quizzes.close-expired': { retryLimit: 2, retryDelay: 60, expireInSeconds: 600 },
  // Each run retries what is still due itself: a failed run needs no retry of its own.
  'earnings.processor-fees': { retryLimit: 0, expireInSeconds: 600 },
  'gifts.send': { retryLimit: 2, retryDelay: 120, expireInSeconds: 600 },
  'cart-reminders.send': { retryLimit: 2, retryDelay: 120, expireInSeconds: 600 },
  'learning.drip-unlocks': { retryLimit: 2, retryDelay: 300, expireInSeconds: 1800 },
  'learning.question-digest': { retryLimit: 2, retryDelay: 600, expireInSeconds: 1800 },
  // Each run takes up what is still due (a failed erasure stays due): no retry of its own.
  'privacy.account-deletions': { retryLimit: 0, expireInSeconds: 1800 },
  'privacy.retention': { retryLimit: 2, retryDelay: 900, expireInSeconds: 1800 },
  // Each run takes up what is still due: no retry of its own.
  'account.stripe-email': { retryLimit: 0, expireInSeconds: 600 },
  'messages.digest': { retryLimit: 2, retryDelay: 600, expireInSeconds: 1800 },
  'live.reminders': { retryLimit: 2, retryDelay: 60, expireInSeconds: 600 },
  'live-chat.to-inbox': { retryLimit: 2, retryDelay: 60, expireInSeconds: 600 },
  // A rerun writes the same rows: a failed run is simply retried.
  'analytics.rollup': { retryLimit: 2, retryDelay: 300, expireInSeconds: 3600 },
  // A 4 GB 1080p source takes a while; a dead worker's job is handed on by its stopped heartbeat, not the expiry.
  // Tries that run out unsettled (the last one's worker died) are marked failed by the relay (jobGone).
  'video.transcode': { retryLimit: 2, retryDelay: 60, heartbeatSeconds: 30, expireInSeconds: 4 * 3600 },
  // No queue retry: a failed attempt stores its next time (3 days of back-off) and the relay enqueues it then; a job
  // that failed or expired before recording anything is taken again by the relay once it is gone (jobGone).
  'webhooks.deliver': { retryLimit: 0, expireInSeconds: 60 },
  // Each run takes up the proofs not checked for 5 hours (a failed run's too): no retry of its own.
  'sso.domain-recheck': { retryLimit: 0, expireInSeconds: 1800 },
  // The same for custom domains.
  'domains.recheck': { retryLimit: 0, expireInSeconds: 1800 },
}

/**
 * How many jobs of a queue one node runs at once (one unless named). A worker takes one job a poll (a second), so a
 * single sender drained a burst of 30 mails in 30 seconds, and one SMTP server that never answers held every
 * message behind it; webhook receivers are other people's servers, as slow.
 */
export const concurrency: Partial<Record<JobName, WorkerOptions>> = {
  'mail.send': { localConcurrency: 4 },
  'webhooks.deliver': { localConcurrency: 4 },
}

/** Cron schedules (UTC), one per queue. */
export const schedules: ScheduleOf<Jobs>[] = [
  { name: 'storage.sweep', cron: '17 3 * * *', data: {} },
  { name: 'service-orders.auto-complete', cron: '*/15 * * * *', data: {} },
  { name: 'orders.expire', cron: '*/15 * * * *', data: {} },
  // Hourly: reminders go out within the hour they fall due, and each at most once.
  { name: 'membership.schedule', cron: '23 * * * *', data: {} },
  { name: 'earnings.release-holds', cron: '41 * * * *', data: {} },
  // The 1st of each month at 05:00 UTC, before the payouts: the previous month's Premium pool (credited as available),
  // and any closed month a missed run left.
  { name: 'earnings.premium-pool', cron: '0 5 1 * *', data: {} },
  // The 1st of each month at 06:00 UTC: the previous month's payouts (the studio shows this date).
  { name: 'earnings.payouts', cron: '0 6 1 * *', data: {} },
  // Every minute: a person asking for their data waits a minute or two, not an hour.
  { name: 'privacy.exports', cron: '* * * * *', data: {} },
  // Every 15 minutes: a timed quiz attempt abandoned past its limit is graded soon after (its learner's own next
  // read grades it at once).
  { name: 'quizzes.close-expired', cron: '*/15 * * * *', data: {} },
  { name: 'earnings.processor-fees', cron: '*/15 * * * *', data: {} },
  // Gifts with a send date go out within five minutes of it (08:00 UTC of the chosen day).
  { name: 'gifts.send', cron: '*/5 * * * *', data: {} },
  // Within minutes of a checkout expiring (after orders.expire, which runs at :00, :15, :30 and :45).
  { name: 'cart-reminders.send', cron: '2-59/5 * * * *', data: {} },
  // Hourly: a dripped section's mail goes out within the hour it opens.
  { name: 'learning.drip-unlocks', cron: '37 * * * *', data: {} },
  // Daily at 07:00 UTC: the previous UTC day's new questions, once per instructor and course.
  { name: 'learning.question-digest', cron: '0 7 * * *', data: {} },
  // Hourly: an account is erased within the hour its 14-day cool-off ends; the reminder a day before.
  { name: 'privacy.account-deletions', cron: '11 * * * *', data: {} },
  // Daily at 04:23 UTC: sessions, tokens, sent mail, carts… past their periods.
  { name: 'privacy.retention', cron: '23 4 * * *', data: {} },
  // Every 5 minutes: Stripe has a moved account's new address within minutes (an outage: the run after it ends).
  { name: 'account.stripe-email', cron: '4-59/5 * * * *', data: {} },
  // Daily at 07:10 UTC: the previous UTC day's unread messages, once per person who chose the digest.
  { name: 'messages.digest', cron: '10 7 * * *', data: {} },
  // Every 5 minutes: a session's reminder goes out between 60 and 55 minutes before its start, once.
  { name: 'live.reminders', cron: '*/5 * * * *', data: {} },
  // Every 5 minutes, so a chat left waiting at closing time reaches the inbox within minutes.
  { name: 'live-chat.to-inbox', cron: '3-58/5 * * * *', data: {} },
  // Hourly: yesterday's sales are rolled up within the hour after midnight UTC, learners' progress within the hour.
  { name: 'analytics.rollup', cron: '11 * * * *', data: {} },
  // Every 6 hours: a verified SSO e-mail domain whose TXT record is gone lapses 24–30 hours after the first miss.
  { name: 'sso.domain-recheck', cron: '29 */6 * * *', data: {} },
  // The same for verified custom domains, three hours after the SSO one (their lookups never run together).
  { name: 'domains.recheck', cron: '29 3-23/6 * * *', data: {} },
]

export type JobDeps = MailDeps & {
  db: DB
  storage: FileStorage
  /** Resumable uploads in progress: the daily sweep removes those abandoned for a day. */
  tusFiles?: TusFiles
  /** SERVICE_ORDER_AUTO_COMPLETE_DAYS (default 3) and the origin links in e-mails point to. */
  serviceOrders?: { autoCompleteDays: number; publicUrl: string }
  /** Card checkouts left unpaid are expired through it (null or absent: card payments off). */
  stripe?: StripeApi | null
  /** The origin of links in membership e-mails, and the prefix of renewal order references. */
  membership?: { publicUrl: string; referencePrefix: string }
  /** PAYOUT_THRESHOLD_MINOR: creators' balances below it wait for the next month (default 5000 = 50.00). */
  payouts?: { thresholdMinor: number }
  /** PREMIUM_POOL_BASIS_POINTS: the share of Premium's net revenue pooled for creators (default 3000 = 30 %). */
  premiumPool?: { basisPoints: number }
  /** ffmpeg and ffprobe as found at start (null: lesson videos play as uploaded). */
  ffmpeg?: Ffmpeg | null
  /** Webhook deliveries to loopback and private addresses allowed (not in production; decision 0061). */
  webhooks?: { allowPrivate: boolean }
  /** TXT lookups for the SSO e-mail domain and custom domain re-checks (DNS_SERVERS; absent: the system's resolver). */
  txtLookup?: (name: string) => Promise<string[][]>
  /** LIVE_CHAT_HOURS (absent: the hours /contact states). */
  liveChatHours?: ChatHours
}

/** The origin of links in the jobs' e-mails when none is configured (development and tests). */
const DEFAULT_PUBLIC_URL = 'http://localhost:3000'

export function handlers(deps: JobDeps): { [N in JobName]: JobHandler<Jobs[N]> } {
  const publicUrl = () => deps.membership?.publicUrl ?? DEFAULT_PUBLIC_URL
  /** What the privacy jobs (exports and erasures) work with: the database, the files, the log and the links' origin. */
  const privacyDeps = () => ({ db: deps.db, storage: deps.storage, log: deps.log, publicUrl: publicUrl() })
  /** A job that mails (or grades) whatever is due and logs how many when there were any. */
  const countedRun =
    (run: (db: DB, publicUrl: string) => Promise<number>, message: string, key = 'sent') =>
    async () => {
      const count = await run(deps.db, publicUrl())
      if (count) deps.log.info({ [key]: count }, message)
    }
  return {
    'mail.send': (job) => deliverOutboxMail(deps, job.data.outboxId, attemptOf(job)),
    // The failed job's id: a message resent since then (a new job) is not this dead letter's to settle.
    'mail.undeliverable': (job) => markUndeliverable(deps, job.data.outboxId, job.sourceRootId ?? job.sourceId),
    'membership.schedule': async () => {
      const settings = deps.membership ?? { publicUrl: DEFAULT_PUBLIC_URL, referencePrefix: 'SF' }
      const counts = await runMembershipSchedule({ db: deps.db, ...settings })
      deps.log.info(counts, 'membership schedule ran')
    },
    'storage.sweep': async () => {
      const { listed, deleted, failed, unclaimedRows } = await sweepUnreferencedUploads(deps)
      const staged = await sweepStaleStaging(deps.storage.stagingDir, new Date(clock.nowMs() - UPLOAD_SWEEP_MIN_AGE_MS))
      const abandoned = deps.tusFiles
        ? await sweepAbandonedVideoUploads(deps.db, deps.tusFiles, new Date(clock.nowMs() - UPLOAD_SWEEP_MIN_AGE_MS))
        : 0
      deps.log.info(
        { listed, deleted: deleted.length, failed: failed.length, unclaimedRows, staged, abandoned },
        'swept unreferenced uploads and stale staged files',
      )
    },
    'service-orders.auto-complete': async () => {
      const settings = deps.serviceOrders ?? { autoCompleteDays: 3, publicUrl: DEFAULT_PUBLIC_URL }
      const completed = await autoCompleteDeliveries(deps.db, settings.autoCompleteDays, settings)
      if (completed > 0) deps.log.info({ completed }, 'completed unanswered service-order deliveries')
    },
    'earnings.release-holds': async () => {
      const released = await releaseAllDueHolds(deps.db, clock.now())
      if (released) deps.log.info({ released }, 'released creators’ shares past their refund window')
    },
    'earnings.payouts': async () => {
      const now = clock.now()
      const run = await runPayouts(deps.db, deps.stripe ?? null, {
        month: payoutMonthOf(now),
        thresholdMinor: deps.payouts?.thresholdMinor ?? DEFAULT_PAYOUT_THRESHOLD_MINOR,
        now,
      })
      deps.log.info(run, 'ran creators’ payouts')
      // Refused transfers stay 'failed' for staff, unanswered ones 'unconfirmed'; the job's retry looks each up and
      // sends it again if Stripe has none (same idempotency keys).
      if (run.failed + run.unconfirmed > 0) {
        throw new Error(`${run.failed} payout(s) failed, ${run.unconfirmed} unconfirmed; retrying`)
      }
    },
    'privacy.exports': async () => {
      const run = await buildPendingExports(privacyDeps())
      if (run.built || run.failed || run.expired) deps.log.info(run, 'built data exports')
    },
    'earnings.premium-pool': async () => {
      const basisPoints = deps.premiumPool?.basisPoints ?? DEFAULT_PREMIUM_POOL_BASIS_POINTS
      // Every closed month no run settled: the one that ended, and any a missed run on a 1st left (decision 0046).
      const { months, outcomes } = await runDuePremiumPools(deps.db, { now: clock.now(), basisPoints })
      deps.log.info({ months, outcomes: outcomes.map(({ shares: _, ...outcome }) => outcome) }, 'ran the Premium pool')
    },
    'quizzes.close-expired': countedRun(
      closeExpiredQuizAttempts,
      'graded timed quiz attempts at their limit',
      'closed',
    ),
    'earnings.processor-fees': async () => {
      const counts = await settleDueProcessorFees(deps.db, deps.stripe ?? null, clock.now(), deps.log)
      if (counts.taken || counts.failed) deps.log.info(counts, 'took Stripe’s fees from creators’ shares')
    },
    'gifts.send': async () => {
      const sent = await sendDueGifts(deps.db, clock.now())
      if (sent) deps.log.info({ sent }, 'sent gift e-mails that fell due')
    },
    'cart-reminders.send': countedRun(sendCartReminders, 'sent cart reminders'),
    'learning.drip-unlocks': countedRun(sweepDripUnlocks, 'mailed learners whose dripped sections opened'),
    'learning.question-digest': countedRun(sendQuestionDigests, 'sent instructors’ question digests'),
    'privacy.account-deletions': async () => {
      const run = await runAccountDeletions({ ...privacyDeps(), stripe: deps.stripe ?? null })
      if (Object.values(run).some(Boolean)) deps.log.info(run, 'ran account deletions')
    },
    'privacy.retention': async () => {
      deps.log.info(await runRetention(deps.db, clock.now()), 'purged records past their retention periods')
    },
    'account.stripe-email': async () => {
      const run = await syncStripeCustomerEmails({ db: deps.db, stripe: deps.stripe ?? null, log: deps.log })
      if (run.updated || run.failed) deps.log.info(run, 'gave Stripe customers their accounts’ new addresses')
    },
    'messages.digest': countedRun(sendMessageDigests, 'sent daily message digests'),
    'live.reminders': async () => {
      await countedRun(sendLiveReminders, 'sent live-session reminders')()
      await countedRun(announceLiveSessions, 'announced live sessions to their courses’ learners')()
    },
    'live-chat.to-inbox': async () => {
      const passed = await passUnjoinedChatsToInbox({ db: deps.db, config: { liveChatHours: deps.liveChatHours } })
      if (passed) deps.log.info({ passed }, 'left chats nobody joined as messages in the support inbox')
    },
    'analytics.rollup': async () => {
      const run = await runAnalyticsRollup(deps.db, clock.now())
      if (run.days.length || run.courses)
        deps.log.info({ days: run.days.length, courses: run.courses }, 'rolled up analytics')
    },
    'video.transcode': async (job) => {
      const attempt = attemptOf(job)
      const transcodeDeps = { db: deps.db, storage: deps.storage, log: deps.log, ffmpeg: deps.ffmpeg ?? null }
      await transcodeUpload(transcodeDeps, job.data.uploadId, attempt.number >= attempt.of, job.id)
    },
    'webhooks.deliver': async (job) => {
      await attemptWebhookDelivery(
        {
          db: deps.db,
          log: deps.log,
          allowPrivate: deps.webhooks?.allowPrivate ?? false,
          publicUrl: publicUrl(),
        },
        job.data.deliveryId,
        job.id,
      )
    },
    'sso.domain-recheck': async () => {
      const run = await recheckSsoDomainProofs(deps.db, deps.txtLookup, publicUrl())
      if (run.checked) deps.log.info(run, 're-checked SSO e-mail domain proofs')
    },
    'domains.recheck': async () => {
      const run = await recheckSchoolDomains(deps.db, deps.txtLookup, publicUrl())
      if (run.checked) deps.log.info(run, 're-checked verified custom domains')
    },
    'orders.expire': async () => {
      const expired = await expireAbandonedCheckouts({ ...deps, stripe: deps.stripe ?? null })
      if (expired) deps.log.info({ expired }, 'expired abandoned checkouts')
    },
  }
}

/** Loops that move work onto the queues; each returns its stop function. */
export function feeders(deps: JobDeps, queue: JobQueue<Jobs>, tuning: { relayIntervalMs?: number } = {}) {
  return [
    startOutboxRelay({
      db: deps.db,
      enqueue: (outboxId, trx, { priority }) => queue.enqueue('mail.send', { outboxId }, { trx, priority }),
      log: deps.log,
      intervalMs: tuning.relayIntervalMs,
    }),
    startTranscodeRelay({
      db: deps.db,
      enqueue: (uploadId, trx) => queue.enqueue('video.transcode', { uploadId }, { trx }),
      jobGone: jobGone('video.transcode'),
      log: deps.log,
      intervalMs: tuning.relayIntervalMs,
    }),
    startWebhookRelay(deps, queue, tuning.relayIntervalMs),
  ]
}

/**
 * Puts due webhook deliveries on the queue every interval (the moved test clock decides what is due), those whose
 * job is gone without settling them too.
 */
function startWebhookRelay(deps: JobDeps, queue: JobQueue<Jobs>, intervalMs = 1000) {
  const enqueue = (deliveryId: string, trx: Transaction<Database>) =>
    queue.enqueue('webhooks.deliver', { deliveryId }, { trx })
  const relay = () => relayWebhookDeliveries(deps.db, enqueue, { jobGone: jobGone('webhooks.deliver') })
  return repeatEvery(relay, { log: deps.log, what: 'webhook relay', intervalMs })
}
