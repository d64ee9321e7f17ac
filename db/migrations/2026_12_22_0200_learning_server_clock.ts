// Frozen: how much new watching a video save may claim is measured by the server's clock (2026-12-22). The allowance
// (2× playback since the last save, + 5 s) ran from lesson_progress.updated_at, which is the `sentAt` the player
// sends: a save dated in the past made room for any amount of watching, and so for Premium pool minutes. It now runs
// from allowance_from, written by the server only: the moment up to which the watching believed so far is accounted
// for at 2× playback. Rows from before have none: their next save counts as a first one (35 s), with no rewrite of
// a table of millions.
// And when a lesson went live (lessons.live_at): "N lessons added since you completed" counted lessons created after
// the completion, so a lesson added while the course was on sale, waiting for review, and approved after a learner
// completed was never counted. New rows take the moment they are written (a lesson of a course not on sale, or on
// sale and written live, is live then) and approval sets it again; rows from before have none and their created_at
// stands in, with no rewrite of the table. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table lesson_progress add column allowance_from timestamptz`.execute(db)
  await sql`alter table lessons add column live_at timestamptz`.execute(db)
  await sql`alter table lessons alter column live_at set default now()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table lessons drop column if exists live_at`.execute(db)
  await sql`alter table lesson_progress drop column if exists allowance_from`.execute(db)
}
