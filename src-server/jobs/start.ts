// Starts the job queue for this process: every node creates the registry's queues (so it can enqueue); a worker
// (WORKER=inline in the server, or `npm run worker`) also runs the handlers, the schedules and the feeders.

import type { PGlite } from '@electric-sql/pglite'
import { CronExpressionParser } from 'cron-parser'
import { chatHoursSetting } from '../../src-shared/live-chat.ts'
import { createTxtLookup, parseDnsServers } from '../creators/dns-verify.ts'
import { setDueWorkRunner } from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import type { Env } from '../kernel/env.ts'
import type { Log } from '../kernel/log.ts'
import { createMailTransport } from '../mail/transport.ts'
import type { StripeApi } from '../payments/stripe.ts'
import { type Ffmpeg, findFfmpeg } from '../storage/ffmpeg.ts'
import type { FileStorage } from '../storage/storage.ts'
import type { TusFiles } from '../storage/tus-store.ts'
import { type JobQueue, openJobQueue, type QueueOptions, type WorkerOptions, workAll } from './queue.ts'
import { concurrency, feeders, handlers, type JobName, type Jobs, queues, schedules } from './registry.ts'

export interface JobsTuning {
  /** Per-queue option overrides (tests shorten retry delays). */
  queues?: Partial<Record<JobName, Partial<QueueOptions>>>
  superviseSeconds?: number
  relayIntervalMs?: number
  /** Per-queue worker overrides of the registry's `concurrency` (the mail burst benchmark compares senders). */
  workers?: Partial<Record<JobName, WorkerOptions>>
}

export interface StartJobsOptions {
  db: DB
  /** The embedded instance, when there is no databaseUrl. */
  pglite?: PGlite
  databaseUrl?: string
  /** Where uploads live (the daily sweep of unreferenced ones). */
  storage: FileStorage
  /** Resumable uploads in progress: the daily sweep removes abandoned ones. */
  tusFiles?: TusFiles
  /** Card checkouts left unpaid are expired through it (null: card payments off). */
  stripe?: StripeApi | null
  env: Pick<Env, 'SMTP_URL' | 'MAIL_FROM'> &
    Partial<
      Pick<
        Env,
        | 'SERVICE_ORDER_AUTO_COMPLETE_DAYS'
        | 'PUBLIC_URL'
        | 'PORT'
        | 'ORDER_REFERENCE_PREFIX'
        | 'PAYOUT_THRESHOLD_MINOR'
        | 'PREMIUM_POOL_BASIS_POINTS'
        | 'TEST_CLOCK'
        | 'LIVE_CHAT_HOURS'
        | 'FFMPEG_PATH'
        | 'NODE_ENV'
        | 'WEBHOOKS_ALLOW_PRIVATE'
        | 'DNS_SERVERS'
      >
    >
  log: Log
  tuning?: JobsTuning
  /** Tests pass the tools (or null); else FFMPEG_PATH or PATH decides, reported in the log. */
  ffmpeg?: Ffmpeg | null
}

export interface RunningJobs {
  queue: JobQueue<Jobs>
  stop(): Promise<void>
}

export async function startJobs(options: StartJobsOptions): Promise<RunningJobs> {
  const { db, log, tuning = {} } = options
  const queue = await openJobQueue<Jobs>({
    databaseUrl: options.databaseUrl,
    pglite: options.pglite,
    queues: withOverrides(tuning.queues),
    log,
    // Only workers start the jobs: a web node with WORKER=off opens no queue at all (main.ts).
    role: 'worker',
    superviseSeconds: tuning.superviseSeconds,
  })
  const transport = createMailTransport(options.env.SMTP_URL, log)
  const { env } = options
  const ffmpeg = options.ffmpeg !== undefined ? options.ffmpeg : findFfmpeg(env.FFMPEG_PATH)
  if (ffmpeg) log.info({ ffmpeg: ffmpeg.ffmpeg, ffprobe: ffmpeg.ffprobe }, 'video transcoding: ffmpeg found')
  else log.warn({}, 'video transcoding unavailable: no ffmpeg (FFMPEG_PATH or PATH); videos play as uploaded')
  const deps = {
    db,
    log,
    storage: options.storage,
    tusFiles: options.tusFiles,
    stripe: options.stripe ?? null,
    transport,
    from: env.MAIL_FROM,
    serviceOrders: {
      autoCompleteDays: env.SERVICE_ORDER_AUTO_COMPLETE_DAYS ?? 3,
      publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT || 3000}`,
    },
    // Links in the membership e-mails, and the prefix of renewal order references.
    membership: {
      publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT || 3000}`,
      referencePrefix: env.ORDER_REFERENCE_PREFIX ?? 'SF',
    },
    payouts: env.PAYOUT_THRESHOLD_MINOR === undefined ? undefined : { thresholdMinor: env.PAYOUT_THRESHOLD_MINOR },
    webhooks: { allowPrivate: env.NODE_ENV !== 'production' || env.WEBHOOKS_ALLOW_PRIVATE === 'on' },
    premiumPool:
      env.PREMIUM_POOL_BASIS_POINTS === undefined ? undefined : { basisPoints: env.PREMIUM_POOL_BASIS_POINTS },
    ffmpeg,
    txtLookup: createTxtLookup(parseDnsServers(env.DNS_SERVERS)),
    liveChatHours: chatHoursSetting(env.LIVE_CHAT_HOURS),
  }
  const work = handlers(deps)
  await workAll(queue, work, { ...concurrency, ...tuning.workers })
  await queue.setSchedules(schedules)
  const stopFeeders = feeders(deps, queue, tuning)
  if (env.TEST_CLOCK === 'on') setDueWorkRunner((from, to) => runDueSchedules(work, from, to))
  return {
    queue,
    async stop() {
      setDueWorkRunner(null)
      await Promise.all(stopFeeders.map((stop) => stop()))
      await queue.stop()
    },
  }
}

function withOverrides(overrides: JobsTuning['queues'] = {}) {
  const merged = { ...queues }
  for (const name of Object.keys(overrides) as JobName[]) merged[name] = { ...queues[name], ...overrides[name] }
  return merged
}

/**
 * TEST_CLOCK=on: the schedules with a cron time in (from, to] run once each, here and now, in the registry's order
 * (holds are released before the month's payouts). pg-boss keeps the real clock; this is what a moved clock owes.
 */
export async function runDueSchedules(work: ReturnType<typeof handlers>, from: Date, to: Date): Promise<JobName[]> {
  const ran: JobName[] = []
  for (const schedule of schedules) {
    const next = CronExpressionParser.parse(schedule.cron, { currentDate: from, tz: 'UTC' }).next().toDate()
    if (next > to) continue
    const handler = work[schedule.name] as (job: unknown) => Promise<void>
    await handler({ id: `test-clock:${schedule.name}`, name: schedule.name, data: schedule.data, retryCount: 0 })
    ran.push(schedule.name)
  }
  return ran
}
