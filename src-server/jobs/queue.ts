// The job queue: pg-boss 12 in the app's own database, on PostgreSQL directly or on the embedded PGlite through
// a wire-protocol socket (pglite-socket.ts). Jobs are rows, so several nodes share the work without doing it
// twice (SKIP LOCKED) and a crash loses none (heartbeats and expiry hand a dead worker's job to another).
import type { PGlite } from '@electric-sql/pglite'
import { type Expression, sql, type Transaction } from 'kysely'
import { fromKysely, type JobWithMetadata, PgBoss, type Queue, type SendOptions, type WorkOptions } from 'pg-boss'
import type { Database } from '../../db/types.ts'
import type { Log } from '../kernel/log.ts'
import type { JobGone } from '../kernel/relay.ts'
import type { PgliteSocket } from './pglite-socket.ts'

/** Job name → the data its jobs carry. */
export type JobTypes = Record<string, object>
export type QueueOptions = Omit<Queue, 'name'>
export type JobHandler<Data> = (job: JobWithMetadata<Data>) => Promise<void>

export interface EnqueueOptions extends Omit<SendOptions, 'db'> {
  /** Enqueue inside the caller's transaction: the job exists if and only if the caller commits. */
  trx?: Transaction<Database>
}

/**
 * One job at a time, with its retry metadata; the handler's outcome settles it (a throw means retry). pg-boss's
 * transactional workers are left out: on PGlite a handler's open transaction would hold the whole database.
 */
export type WorkerOptions = Omit<WorkOptions, 'batchSize' | 'includeMetadata' | 'perJobResults' | 'transactional'>

export type ScheduleOf<T extends JobTypes> = {
  [N in keyof T & string]: { name: N; cron: string; data: T[N] }
}[keyof T & string]

export interface JobQueue<T extends JobTypes> {
  enqueue<N extends keyof T & string>(name: N, data: T[N], options?: EnqueueOptions): Promise<string>
  work<N extends keyof T & string>(name: N, handler: JobHandler<T[N]>, options?: WorkerOptions): Promise<void>
  /**
   * Makes the stored cron schedules exactly these (UTC): the database keeps them and a worker sends one job per
   * tick whatever the number of nodes. A schedule dropped from the list is removed.
   */
  setSchedules(schedules: ScheduleOf<T>[]): Promise<void>
  /** Lets running handlers finish (up to timeoutMs), then closes the connections. */
  stop(timeoutMs?: number): Promise<void>
}

export interface OpenJobQueueOptions<T extends JobTypes> {
  /** PostgreSQL URL; without it, `pglite` is served over a loopback socket. */
  databaseUrl?: string
  pglite?: PGlite
  queues: { [N in keyof T]: QueueOptions }
  log: Log
  /** Workers also watch for dead workers' jobs and send scheduled jobs; web nodes only enqueue. */
  role: 'web' | 'worker'
  /** How often a worker looks for jobs whose worker died (seconds; pg-boss's default 60). */
  superviseSeconds?: number
}

export async function openJobQueue<T extends JobTypes>(options: OpenJobQueueOptions<T>): Promise<JobQueue<T>> {
  const { log, role } = options
  let socket: PgliteSocket | undefined
  let connection: { connectionString: string; max: number }
  if (options.databaseUrl) connection = { connectionString: options.databaseUrl, max: 4 }
  else if (options.pglite) {
    // Only the embedded database needs the socket (and its package): loaded here, not by a server on PostgreSQL.
    const { servePgliteSocket } = await import('./pglite-socket.ts')
    socket = await servePgliteSocket(options.pglite)
    connection = { connectionString: socket.connectionString, max: 1 }
  } else throw new Error('openJobQueue needs a databaseUrl or a PGlite instance')

  const worker = role === 'worker'
  const boss = new PgBoss({
    ...connection,
    application_name: `storefront-jobs-${role}`,
    supervise: worker,
    schedule: worker,
    instanceName: role,
    ...(options.superviseSeconds
      ? { superviseIntervalSeconds: options.superviseSeconds, monitorIntervalSeconds: options.superviseSeconds }
      : {}),
  })
  // Without a listener an 'error' event would end the process; a lost connection is retried by pg-boss.
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'))
  boss.on('warning', (warning) => log.warn({ data: warning.data }, `job queue: ${warning.message}`))
  try {
    await boss.start()
    await createQueues(boss, options.queues)
  } catch (error) {
    await boss.stop({ graceful: false }).catch(() => undefined)
    await socket?.stop()
    throw error
  }

  return {
    async enqueue(name, data, { trx, ...send } = {}) {
      // Every queue was created (and cached) at start, so pg-boss reads nothing before its insert: on PGlite a read
      // over the socket would wait for the caller's transaction, which waits for this call.
      const id = await boss.send(name, data, { ...send, db: trx ? fromKysely(trx) : undefined })
      if (!id) throw new Error(`job queue: '${name}' refused the job (a singleton already queued?)`)
      return id
    },
    async work(name, handler, workOptions) {
      const settings = { pollingIntervalSeconds: 1, ...workOptions, batchSize: 1, includeMetadata: true as const }
      await boss.work<T[typeof name], void, typeof settings>(name, settings, async ([job]) => {
        if (job) await handler(job)
      })
    },
    async setSchedules(schedules) {
      const wanted = new Set(schedules.map((entry) => entry.name))
      for (const stored of await boss.getSchedules()) {
        if (!wanted.has(stored.name) || stored.key !== '') await boss.unschedule(stored.name, stored.key)
      }
      for (const { name, cron, data } of schedules) await boss.schedule(name, cron, data)
    },
    async stop(timeoutMs = 5000) {
      await boss.stop({ graceful: true, timeout: timeoutMs })
      await socket?.stop()
    },
  }
}

/**
 * For a relay's query (kernel/relay.ts JobGone): true when pg-boss holds no job of `name` with that id waiting,
 * retrying or running. A job that threw with no tries left, expired, or whose worker's heartbeat stopped is 'failed';
 * one past its retention is deleted; both count as gone. Read in the relay's own transaction, on the app's connection
 * (pg-boss keeps its tables in the app's database, schema pgboss, primary key (name, id)).
 */
export function jobGone(name: string): JobGone {
  return (jobId: Expression<string | null>) =>
    sql<boolean>`not exists (select 1 from pgboss.job as queued where queued.name = ${name}
      and queued.id = ${jobId}::uuid and queued.state in ('created', 'retry', 'active'))`
}

/** Registers a handler for every job name (a map that TypeScript checks is complete), with its worker options. */
export async function workAll<T extends JobTypes>(
  queue: JobQueue<T>,
  handlers: { [N in keyof T & string]: JobHandler<T[N]> },
  options: Partial<Record<keyof T & string, WorkerOptions>> = {},
): Promise<void> {
  for (const name of Object.keys(handlers) as (keyof T & string)[]) {
    await queue.work(name, handlers[name], options[name])
  }
}

/**
 * Creates the queues, dead-letter queues first (a queue names an existing one), and brings existing queues'
 * options up to date, so a deploy that changes a retry policy applies it.
 */
async function createQueues(boss: PgBoss, queues: Record<string, QueueOptions>) {
  const entries = Object.entries(queues).sort(([, a], [, b]) => Number(!!a.deadLetter) - Number(!!b.deadLetter))
  for (const [name, options] of entries) {
    await boss.createQueue(name, options)
    const { policy: _policy, partition: _partition, ...changeable } = options
    await boss.updateQueue(name, changeable)
  }
}
