// Frozen: /pricing's comparison said Team members "1" on Basic and "3" on Pro, counting the owner on one and not on the
// other: Basic has no co-instructors and Pro up to 3 besides the owner (creator-plans.ts). The seeded row now reads
// "Just you" and "You + 3" (2026-12-15); a database seeded before gets the same words, unless staff changed them.
// Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update plan_comparison_features
    set starter = '"Just you"'::jsonb, professional = '"You + 3"'::jsonb
    where name = 'Team members' and starter = '"1"'::jsonb and professional = '"3"'::jsonb`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    update plan_comparison_features
    set starter = '"1"'::jsonb, professional = '"3"'::jsonb
    where name = 'Team members' and starter = '"Just you"'::jsonb and professional = '"You + 3"'::jsonb`.execute(db)
}
