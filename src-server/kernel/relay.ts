// The second half of a relay onto the job queue (mail/relay.ts, webhooks/deliveries.ts): the rows a pass took with
// SKIP LOCKED each get a job, and the job's id is stored on the row in the same transaction, so a row is either
// queued and marked or neither.
import type { Expression, SqlBool, Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'

/** The tables whose rows a relay hands to the queue: they keep the job's id. */
type QueuedTable = 'mail_outbox' | 'webhook_deliveries'

/**
 * SQL that is true when the job whose id the expression gives is no longer waiting or running on its queue (it
 * failed, expired, completed, was cancelled or removed): a row still naming such a job was left unsettled by it (a
 * handler that threw before recording anything, a worker that died), and its relay may take it again. The job queue
 * provides it (jobs/queue.ts jobGone); the tables' owners know nothing of the queue's own tables.
 */
export type JobGone = (jobId: Expression<string | null>) => Expression<SqlBool>

/** Enqueues one job per row (given the row read) and stores its id on the row; resolves to how many were relayed. */
export async function enqueueRows<Row extends { id: string }>(
  trx: Transaction<Database>,
  table: QueuedTable,
  rows: readonly Row[],
  enqueue: (id: string, trx: Transaction<Database>, row: Row) => Promise<string>,
): Promise<number> {
  for (const row of rows) {
    const jobId = await enqueue(row.id, trx, row)
    await trx.updateTable(table).set({ job_id: jobId }).where('id', '=', row.id).execute()
  }
  return rows.length
}
