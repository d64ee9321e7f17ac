// Frozen: the REST API's enrolment and order lists serve only rows whose writing transaction has ended (decision
// 0094, 2026-12-12). Each row carries the id of the transaction that made it visible to the lists (xid8): a grant's
// creator (`access_grants.created_xid`, the insert's default) and an order's payer (`orders.paid_xid`, stamped by a
// trigger whenever paid_at changes). The lists are ordered by (xid, time, id) and read only xids below the oldest
// transaction still running, so no row can later appear behind a cursor already given. Rows from before this
// migration all get xid 1: they are committed, sort first, among themselves by (time, id) as before — so a cursor
// given before it resumes where it was. The constant default is stored in the catalogue (no table rewrite); the
// volatile default applies to new rows only. Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table access_grants add column created_xid xid8 not null default '1'`.execute(db)
  await sql`alter table access_grants alter column created_xid set default pg_current_xact_id()`.execute(db)
  await sql`create index access_grants_created_xid on access_grants (created_xid, created_at, id)
              where kind = 'course'`.execute(db)

  await sql`alter table orders add column paid_xid xid8 not null default '1'`.execute(db)
  await sql`alter table orders alter column paid_xid set default pg_current_xact_id()`.execute(db)
  await sql`create function orders_stamp_paid_xid() returns trigger language plpgsql as $$
    begin
      if new.paid_at is distinct from old.paid_at then
        new.paid_xid := pg_current_xact_id();
      end if;
      return new;
    end $$`.execute(db)
  await sql`create trigger orders_stamp_paid_xid before update of paid_at on orders
              for each row execute function orders_stamp_paid_xid()`.execute(db)
  await sql`create index orders_paid_xid on orders (paid_xid, paid_at) where paid_at is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index orders_paid_xid`.execute(db)
  await sql`drop trigger orders_stamp_paid_xid on orders`.execute(db)
  await sql`drop function orders_stamp_paid_xid()`.execute(db)
  await sql`alter table orders drop column paid_xid`.execute(db)
  await sql`drop index access_grants_created_xid`.execute(db)
  await sql`alter table access_grants drop column created_xid`.execute(db)
}
