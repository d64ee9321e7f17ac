// Frozen: the catalogue schema as of 2026-11-22. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // Trigram indexes make the catalogue's substring search (ILIKE '%…%') an index scan.
  await sql`create extension if not exists pg_trgm`.execute(db)

  await db.schema
    .createTable('categories')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('icon', 'text', (c) => c.notNull().defaultTo('book'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('instructors')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().defaultTo('Instructor / Subject Expert'))
    .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('image_url', 'text', (c) => c.notNull().defaultTo('/placeholder.svg'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('courses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category_id', 'uuid', (c) => c.notNull().references('categories.id'))
    .addColumn('instructor_id', 'uuid', (c) => c.references('instructors.id').onDelete('set null'))
    .addColumn('instructor_name', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text', (c) => c.notNull().defaultTo('/placeholder.svg'))
    .addColumn('price_minor', 'integer', (c) => c.notNull().check(sql`price_minor >= 0`))
    .addColumn('original_price_minor', 'integer', (c) => c.check(sql`original_price_minor >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD').check(sql`currency in ('USD','GBP')`))
    .addColumn('rating', 'double precision', (c) => c.notNull().defaultTo(0).check(sql`rating between 0 and 5`))
    .addColumn('review_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('students_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('level', 'text', (c) =>
      c.notNull().defaultTo('beginner').check(sql`level in ('beginner','intermediate','advanced')`),
    )
    .addColumn('duration_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lessons_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('English'))
    .addColumn('certificate', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('what_you_will_learn', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('requirements', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('curriculum', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('draft').check(sql`status in ('draft','published','archived')`),
    )
    .addColumn('featured', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('published_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('courses_status_popular_idx').on('courses').columns(['status', 'review_count']).execute()
  await db.schema.createIndex('courses_category_idx').on('courses').columns(['category_id', 'status']).execute()
  await sql`create index courses_title_trgm_idx on courses using gin (title gin_trgm_ops)`.execute(db)
  await sql`create index courses_instructor_trgm_idx on courses using gin (instructor_name gin_trgm_ops)`.execute(db)

  await db.schema
    .createTable('services')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('category_id', 'uuid', (c) => c.notNull().references('categories.id'))
    .addColumn('image_url', 'text', (c) => c.notNull().defaultTo('/placeholder.svg'))
    .addColumn('featured', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('what_you_get', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('requirements', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('process_steps', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('faqs', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('paypal', 'jsonb')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('service_packages')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('price_minor', 'integer', (c) => c.notNull().check(sql`price_minor >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('USD','GBP')`))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('features', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('processing_time', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('billing_interval', 'text', (c) => c.check(sql`billing_interval in ('month','year')`))
    .addUniqueConstraint('service_packages_service_name_key', ['service_id', 'name'])
    .execute()

  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('monthly_price_minor', 'integer', (c) => c.notNull())
    .addColumn('annual_price_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('features', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('is_popular', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('badge', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('plan_comparison_features')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('starter', 'jsonb', (c) => c.notNull())
    .addColumn('professional', 'jsonb', (c) => c.notNull())
    .addColumn('enterprise', 'jsonb', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('testimonials')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('promo_videos')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('poster_url', 'text', (c) => c.notNull())
    .addColumn('video_url', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'promo_videos',
    'testimonials',
    'plan_comparison_features',
    'plans',
    'service_packages',
    'services',
    'courses',
    'instructors',
    'categories',
  ]) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
