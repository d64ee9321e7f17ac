// Frozen: the catalogue's search vector, search vocabulary and maintained facet counts as of 2026-11-24 (decision
// 0022). Never import application code here: the band thresholds below copy src-shared/constants.ts of that day
// (price 0 | 1–4999 | 5000–10000 | 10001+ minor units; duration 0–180 | 181–360 | 361–720 | 721+ minutes; rating
// floors 0–4), and a test checks they still agree with the constants.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // Band numbers (0-based, in the order of the shared constants), one immutable function per dimension.
  await sql`
    create function catalog_price_band(price integer) returns smallint language sql immutable parallel safe
    return width_bucket(price, array[1, 5000, 10001])::smallint`.execute(db)
  await sql`
    create function catalog_duration_band(minutes integer) returns smallint language sql immutable parallel safe
    return width_bucket(minutes, array[181, 361, 721])::smallint`.execute(db)
  await sql`
    create function catalog_rating_floor(rating double precision) returns smallint language sql immutable
    parallel safe return least(floor(rating), 4)::smallint`.execute(db)

  // A course's filter group (category, price band, rating floor, duration band) as one lexeme, 'group
  // <category>/<price>/<rating>/<duration>'. It has a space, which the text parser never puts in a word, so no search
  // term can reach it. A filtered search asks for the term AND any of the groups the filters allow (few, and each
  // group holds a small share of the catalogue, so the GIN index intersects short lists).
  await sql`
    create function catalog_group_lexeme(category uuid, price integer, rating double precision, minutes integer)
    returns tsvector language sql immutable parallel safe
    return array_to_tsvector(array['group ' || category::text || '/' || catalog_price_band(price)::text || '/'
      || catalog_rating_floor(rating)::text || '/' || catalog_duration_band(minutes)::text])`.execute(db)

  // The words of a title and instructor: the 'simple' configuration (lower-cased, no stemming, no stop words), with
  // '<', '>' and '&' made spaces first, because the parser skips what looks like an HTML tag or entity and a
  // substring search must find '<div>' by 'div'.
  await sql`
    create function catalog_words(title text, instructor text) returns tsvector language sql immutable
    parallel safe return to_tsvector('simple'::regconfig, translate(title || ' ' || instructor, '<>&', '   '))`.execute(
    db,
  )

  // Those words and the group lexeme: one GIN index answers a search term with every filter at once.
  await sql`
    alter table courses add column search_vector tsvector generated always as (
      catalog_words(title, instructor_name)
        || catalog_group_lexeme(category_id, price_minor, rating, duration_minutes)
    ) stored`.execute(db)
  await sql`create index courses_search_vector_idx on courses using gin (search_vector)`.execute(db)

  // Every word that ever appeared in a title or instructor name: a search term is expanded to the words that
  // contain it (a trigram index on this small table), so the courses are found through the GIN index above.
  await db.schema
    .createTable('catalog_search_words')
    .addColumn('word', 'text', (c) => c.primaryKey())
    .execute()
  await sql`create index catalog_search_words_trgm_idx on catalog_search_words using gin (word gin_trgm_ops)`.execute(
    db,
  )
  await sql`
    create function catalog_remember_words() returns trigger language plpgsql as $$
    begin
      insert into catalog_search_words (word)
      select unnest(tsvector_to_array(catalog_words(new.title, new.instructor_name)))
      on conflict do nothing;
      return null;
    end $$`.execute(db)
  await sql`
    create trigger courses_search_words after insert or update of title, instructor_name on courses
    for each row execute function catalog_remember_words()`.execute(db)

  // Published courses per (category, price band, rating floor, duration band), and per word and group, kept in
  // the transaction of every change to a course: the unsearched catalogue's facet counts, the home page's category
  // counts and a one-word search's counts read them instead of the courses.
  const groupColumns = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn('category_id', 'uuid', (c) => c.notNull().references('categories.id').onDelete('cascade'))
      .addColumn('price_band', 'smallint', (c) => c.notNull())
      .addColumn('rating_floor', 'smallint', (c) => c.notNull())
      .addColumn('duration_band', 'smallint', (c) => c.notNull())
      .addColumn('courses', 'integer', (c) => c.notNull())
  await groupColumns('catalog_facet_counts')
    .addPrimaryKeyConstraint('catalog_facet_counts_pkey', [
      'category_id',
      'price_band',
      'rating_floor',
      'duration_band',
    ])
    .execute()
  await groupColumns('catalog_word_counts')
    .addColumn('word', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('catalog_word_counts_pkey', [
      'word',
      'category_id',
      'price_band',
      'rating_floor',
      'duration_band',
    ])
    .execute()
  // One statement per table adds the new row's group and subtracts the old one's, in key order: concurrent
  // changes lock the counter rows in the same order, so they queue rather than deadlock. (No check that a count
  // stays >= 0: PostgreSQL checks the proposed row of an INSERT … ON CONFLICT, -1, before it finds the conflict.)
  await sql`
    create function catalog_count_facets() returns trigger language plpgsql as $$
    declare
      had boolean := tg_op <> 'INSERT' and old.status = 'published';
      has boolean := tg_op <> 'DELETE' and new.status = 'published';
    begin
      insert into catalog_facet_counts as f (category_id, price_band, rating_floor, duration_band, courses)
      select c, p, r, d, sum(s) from (
        select -1 as s, old.category_id as c, catalog_price_band(old.price_minor) as p,
          catalog_rating_floor(old.rating) as r, catalog_duration_band(old.duration_minutes) as d where had
        union all
        select 1, new.category_id, catalog_price_band(new.price_minor), catalog_rating_floor(new.rating),
          catalog_duration_band(new.duration_minutes) where has
      ) as changes
      group by c, p, r, d having sum(s) <> 0 order by c, p, r, d
      on conflict (category_id, price_band, rating_floor, duration_band)
      do update set courses = f.courses + excluded.courses;

      insert into catalog_word_counts as f (word, category_id, price_band, rating_floor, duration_band, courses)
      select w, c, p, r, d, sum(s) from (
        select -1 as s, unnest(tsvector_to_array(catalog_words(old.title, old.instructor_name))) as w,
          old.category_id as c, catalog_price_band(old.price_minor) as p, catalog_rating_floor(old.rating) as r,
          catalog_duration_band(old.duration_minutes) as d where had
        union all
        select 1, unnest(tsvector_to_array(catalog_words(new.title, new.instructor_name))), new.category_id,
          catalog_price_band(new.price_minor), catalog_rating_floor(new.rating),
          catalog_duration_band(new.duration_minutes) where has
      ) as changes
      group by w, c, p, r, d having sum(s) <> 0 order by w, c, p, r, d
      on conflict (word, category_id, price_band, rating_floor, duration_band)
      do update set courses = f.courses + excluded.courses;
      return null;
    end $$`.execute(db)
  await sql`
    create trigger courses_facet_counts after insert or delete on courses
    for each row execute function catalog_count_facets()`.execute(db)
  // An update that keeps the course in its groups and words (a new description, a rating 4.5 -> 4.6) runs nothing.
  await sql`
    create trigger courses_facet_counts_update
    after update of status, category_id, price_minor, rating, duration_minutes, title, instructor_name on courses
    for each row when (
      (old.status, old.category_id, catalog_price_band(old.price_minor), catalog_rating_floor(old.rating),
        catalog_duration_band(old.duration_minutes), old.title, old.instructor_name)
      is distinct from
      (new.status, new.category_id, catalog_price_band(new.price_minor), catalog_rating_floor(new.rating),
        catalog_duration_band(new.duration_minutes), new.title, new.instructor_name)
    ) execute function catalog_count_facets()`.execute(db)
  await sql`
    create function catalog_clear_facet_counts() returns trigger language plpgsql as $$
    begin
      delete from catalog_facet_counts;
      delete from catalog_word_counts;
      return null;
    end $$`.execute(db)
  await sql`
    create trigger courses_facet_counts_truncate after truncate on courses
    for each statement execute function catalog_clear_facet_counts()`.execute(db)
  // Everything the triggers keep, recomputed from the courses in one pass: the backfill below, and bulk loads that
  // disable the row triggers for speed (db/seed/generate.ts) call it when done.
  await sql`
    create function catalog_rebuild_counts() returns void language sql as $$
      delete from catalog_facet_counts;
      delete from catalog_word_counts;
      insert into catalog_facet_counts (category_id, price_band, rating_floor, duration_band, courses)
      select category_id, catalog_price_band(price_minor), catalog_rating_floor(rating),
        catalog_duration_band(duration_minutes), count(*)
      from courses where status = 'published' group by 1, 2, 3, 4;
      insert into catalog_word_counts (word, category_id, price_band, rating_floor, duration_band, courses)
      select word, category_id, catalog_price_band(price_minor), catalog_rating_floor(rating),
        catalog_duration_band(duration_minutes), count(*)
      from courses, unnest(tsvector_to_array(catalog_words(title, instructor_name))) as word
      where status = 'published' group by 1, 2, 3, 4, 5;
      insert into catalog_search_words (word)
      select distinct unnest(tsvector_to_array(catalog_words(title, instructor_name))) from courses
      on conflict do nothing;
    $$`.execute(db)
  await sql`select catalog_rebuild_counts()`.execute(db)

  // The home page's featured courses, oldest first, without reading the catalogue.
  await sql`create index courses_featured_idx on courses (created_at) where status = 'published' and featured`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists courses_featured_idx`.execute(db)
  await sql`drop function if exists catalog_rebuild_counts()`.execute(db)
  await sql`drop trigger if exists courses_facet_counts_truncate on courses`.execute(db)
  await sql`drop trigger if exists courses_facet_counts_update on courses`.execute(db)
  await sql`drop trigger if exists courses_facet_counts on courses`.execute(db)
  await sql`drop function if exists catalog_clear_facet_counts()`.execute(db)
  await sql`drop function if exists catalog_count_facets()`.execute(db)
  await db.schema.dropTable('catalog_word_counts').ifExists().execute()
  await db.schema.dropTable('catalog_facet_counts').ifExists().execute()
  await sql`drop trigger if exists courses_search_words on courses`.execute(db)
  await sql`drop function if exists catalog_remember_words()`.execute(db)
  await db.schema.dropTable('catalog_search_words').ifExists().execute()
  await sql`drop index if exists courses_search_vector_idx`.execute(db)
  await sql`alter table courses drop column if exists search_vector`.execute(db)
  await sql`drop function if exists catalog_group_lexeme(uuid, integer, double precision, integer)`.execute(db)
  await sql`drop function if exists catalog_rating_floor(double precision)`.execute(db)
  await sql`drop function if exists catalog_duration_band(integer)`.execute(db)
  await sql`drop function if exists catalog_price_band(integer)`.execute(db)
  await sql`drop function if exists catalog_words(text, text)`.execute(db)
}
