// Every queue with its retry policy, every handler, every schedule and every loop that feeds a queue, in one
// place: web nodes create the same queues with the same options (so they can enqueue), worker nodes also work.
import type { DB } from '../db.ts'
import { deliverOutboxMail, type MailDeps, mailSendQueue, markUndeliverable, type OutboxJob } from '../mail/delivery.ts'
import { startOutboxRelay } from '../mail/relay.ts'
import type { JobHandler, JobQueue, QueueOptions } from './queue.ts'

/** Job name → the data its jobs carry. */
export type Jobs = {
  'mail.send': OutboxJob
  /** Dead letters of 'mail.send': tries ran out without the row being settled. */
  'mail.undeliverable': OutboxJob
}
export type JobName = keyof Jobs

export const queues: { [N in JobName]: QueueOptions } = {
  'mail.send': mailSendQueue,
  'mail.undeliverable': { retryLimit: 5, retryDelay: 60 },
}

/** Cron schedules (UTC): `{ name, cron, data }`; the next issues add expiring orders, reminders, renewals. */
export const schedules: { [N in JobName]: { name: N; cron: string; data: Jobs[N] } }[JobName][] = []

export type JobDeps = MailDeps & { db: DB }

export function handlers(deps: JobDeps): { [N in JobName]: JobHandler<Jobs[N]> } {
  return {
    'mail.send': (job) => deliverOutboxMail(deps, job),
    'mail.undeliverable': (job) => markUndeliverable(deps, job.data.outboxId),
  }
}

/** Loops that move work onto the queues; each returns its stop function. */
export function feeders(deps: JobDeps, queue: JobQueue<Jobs>, tuning: { relayIntervalMs?: number } = {}) {
  return [startOutboxRelay({ db: deps.db, queue, log: deps.log, intervalMs: tuning.relayIntervalMs })]
}
