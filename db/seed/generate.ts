// A large generated catalogue for benchmarks (`npm run db:generate`): realistic titles from weighted topics, 2,000
// instructors with a long tail, skewed categories, prices, ratings and review counts. Set-based SQL (INSERT …
// SELECT generate_series in batches), deterministic: the same count gives the same rows. Generated rows are
// recognisable by their ids ('gen-…') and the instructors' bio, and are replaced on a second run.
import { type Kysely, sql } from 'kysely'
import type { Database } from '../types.ts'

export const GENERATED_ID_PREFIX = 'gen-'
const GENERATED_BIO = 'Generated instructor for the large catalogue.'
const INSTRUCTORS = 2000

/** Topics by course category; a topic listed n times is n times as likely. */
const TOPICS: Record<string, string[]> = {
  development: weighted({
    Python: 10,
    JavaScript: 8,
    React: 7,
    Java: 5,
    'Data Science': 5,
    TypeScript: 4,
    'Node.js': 4,
    SQL: 4,
    'Machine Learning': 4,
    AWS: 3,
    'C#': 3,
    Docker: 3,
    'System Design': 2,
    Kubernetes: 2,
    Go: 2,
    Rust: 2,
    Django: 2,
    'Vue.js': 2,
    Angular: 2,
    'iOS Development': 2,
    'Android Development': 2,
    Git: 1,
    Linux: 1,
    GraphQL: 1,
    Flutter: 1,
  }),
  business: weighted({
    Excel: 8,
    'Project Management': 6,
    Leadership: 5,
    Finance: 5,
    Accounting: 4,
    Entrepreneurship: 4,
    Sales: 4,
    'Public Speaking': 3,
    Negotiation: 3,
    'Business Strategy': 3,
    Productivity: 3,
    Agile: 2,
    'Power BI': 2,
    'Financial Modelling': 2,
    'Real Estate Investing': 1,
  }),
  marketing: weighted({
    'Digital Marketing': 8,
    SEO: 6,
    'Social Media Marketing': 5,
    'Google Ads': 4,
    Copywriting: 4,
    'Email Marketing': 3,
    'Content Marketing': 3,
    Branding: 3,
    'Marketing Analytics': 2,
    'Affiliate Marketing': 2,
    'YouTube Marketing': 2,
    'Growth Hacking': 1,
  }),
  design: weighted({
    'Graphic Design': 8,
    'UX Design': 6,
    Figma: 5,
    Photoshop: 5,
    'UI Design': 4,
    'Web Design': 4,
    Illustrator: 3,
    Photography: 3,
    'Blender 3D': 2,
    Typography: 2,
    'Design Systems': 2,
    'Motion Graphics': 1,
  }),
}
/** Share of courses per category, in percent (must add up to 100). */
const CATEGORY_SHARE = { development: 45, business: 25, marketing: 18, design: 12 }

const TEMPLATES = [
  'The Complete {t} Course',
  '{t} for Beginners',
  '{t} Masterclass',
  'The {l} {t} Bootcamp',
  '{t}: From Zero to Hero',
  '{l} {t}',
  'Learn {t} in 30 Days',
  '{t} Fundamentals',
  'Advanced {t}: Real-World Projects',
  '{t} for {a}',
  '{l} {t} 2026 Edition',
  'Mastering {t} Step by Step',
  '{t} Crash Course',
  'Hands-on {t} with Projects',
]
const ADJECTIVES = ['Complete', 'Practical', 'Modern', 'Essential', 'Ultimate', 'Professional', 'Applied']
const AUDIENCES = ['Busy Professionals', 'Small Business Owners', 'Students', 'Managers', 'Career Changers']
const FIRST_NAMES =
  'Olivia Liam Emma Noah Ava Oliver Sophia Elijah Isabella James Mia William Amelia Benjamin Harper Lucas Evelyn Henry Abigail Alexander Emily Daniel Ella Matthew Chloe Samuel Grace Joseph Zoe David Hannah Arjun Priya Wei Mei Kenji Yuki Carlos Lucia Mateo Sofia Ahmed Fatima Kwame Amara Ivan Olga Lars Ingrid Tomasz'.split(
    ' ',
  )
const LAST_NAMES =
  'Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Thompson White Harris Clark Lewis Walker Hall Young King Wright Chen Wang Patel Singh Kim Nakamura Rossi Muller Novak Okafor'.split(
    ' ',
  )

function weighted(weights: Record<string, number>): string[] {
  return Object.entries(weights).flatMap(([topic, weight]) => Array<string>(weight).fill(topic))
}

const textArray = (values: string[]) => sql`(array[${sql.join(values.map((v) => sql.lit(v)))}]::text[])`

/**
 * `h(g, salt)`: a deterministic pseudo-random integer in 0..2^31 for row g. `u(g, salt)`: the same scaled to [0, 1).
 * hashint8 is PostgreSQL's own integer hash (also in PGlite).
 */
const h = (salt: number) => sql`(hashint8(g::bigint * 1000003 + ${sql.lit(salt)}) & 2147483647)`
const u = (salt: number) => sql`(${h(salt)}::float8 / 2147483648.0)`

export interface GenerateOptions {
  courses: number
  /** Rows per INSERT statement. */
  batch?: number
  onProgress?: (done: number) => void
}

/** Row triggers of migration 2026_11_24_1500 that keep counts and the vocabulary: off during the bulk load. */
const COUNTING_TRIGGERS = ['courses_facet_counts', 'courses_search_words']

/**
 * Replaces any earlier generated rows with `courses` new ones (plus 2,000 instructors), in one transaction. The
 * counting row triggers would run two or three upserts per course (25 times slower), so they are disabled for the
 * load (which locks the courses table until it commits) and the counts are rebuilt in one pass at the end.
 */
export async function generateCatalogue(db: Kysely<Database>, options: GenerateOptions): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const trigger of COUNTING_TRIGGERS)
      await sql.raw(`alter table courses disable trigger ${trigger}`).execute(trx)
    await insertGenerated(trx, options)
    await sql`select catalog_rebuild_counts()`.execute(trx)
    for (const trigger of COUNTING_TRIGGERS) await sql.raw(`alter table courses enable trigger ${trigger}`).execute(trx)
  })
}

async function insertGenerated(db: Kysely<Database>, options: GenerateOptions): Promise<void> {
  const batch = options.batch ?? 100_000
  await db.deleteFrom('courses').where('id', 'like', `${GENERATED_ID_PREFIX}%`).execute()
  await db.deleteFrom('instructors').where('bio', '=', GENERATED_BIO).execute()
  await sql`
    insert into instructors (slug, name, title, bio)
    select 'generated-instructor-' || g,
      ${textArray(FIRST_NAMES)}[1 + (g - 1) % ${sql.lit(FIRST_NAMES.length)}] || ' ' ||
        ${textArray(LAST_NAMES)}[1 + ((g - 1) / ${sql.lit(FIRST_NAMES.length)}) % ${sql.lit(LAST_NAMES.length)}],
      ${textArray(['Software Engineer', 'Data Scientist', 'Marketing Consultant', 'Designer', 'Finance Director', 'Entrepreneur'])}[1 + ${h(3)} % 6],
      ${GENERATED_BIO}
    from generate_series(1, ${sql.lit(INSTRUCTORS)}) as g`.execute(db)

  const categories = await db.selectFrom('categories').select(['id', 'slug']).execute()
  const categoryId = (slug: string) => {
    const id = categories.find((c) => c.slug === slug)?.id
    if (!id) throw new Error(`generate: the seed category '${slug}' is missing (run the seed first)`)
    return id
  }
  // Category by cumulative share: a percentile in 0..99 picks the slot.
  const slugs = Object.keys(CATEGORY_SHARE) as (keyof typeof CATEGORY_SHARE)[]
  const slots = slugs.flatMap((slug, index) => Array<number>(CATEGORY_SHARE[slug]).fill(index + 1))
  const topicArrays = slugs.map((slug) => textArray(TOPICS[slug] ?? []))

  for (let start = 1; start <= options.courses; start += batch) {
    const end = Math.min(options.courses, start + batch - 1)
    await sql`
      with instructors_by_n as (
        select row_number() over (order by id) as n, id, name from instructors where bio = ${GENERATED_BIO}
      ),
      base as (
        select g,
          (array[${sql.join(slots.map((s) => sql.lit(s)))}]::int[])[1 + ${h(10)} % 100] as cat,
          -- A long tail: a few instructors teach many courses.
          1 + floor(${sql.lit(INSTRUCTORS)} * power(${u(11)}, 2.5))::int as instructor_n,
          ${u(12)} as popularity
        from generate_series(${sql.lit(start)}::int, ${sql.lit(end)}::int) as g
      ),
      titled as (
        select base.*,
          case
            -- A rare topic, so a rare search term has a handful of matches.
            when ${h(13)} % 20000 = 0 then 'Quantum Computing'
            ${sql.join(
              topicArrays.map(
                (topics, index) =>
                  sql`when cat = ${sql.lit(index + 1)} then ${topics}[1 + ${h(14)} % array_length(${topics}, 1)]`,
              ),
              sql` `,
            )}
          end as topic
        from base
      )
      insert into courses (id, title, description, category_id, instructor_id, instructor_name, price_minor,
        original_price_minor, rating, review_count, students_count, level, duration_minutes, lessons_count, status,
        featured, created_at, updated_at, published_at)
      select ${GENERATED_ID_PREFIX} || lpad(g::text, 7, '0'),
        replace(replace(replace(${textArray(TEMPLATES)}[1 + ${h(15)} % ${sql.lit(TEMPLATES.length)}],
          '{t}', topic), '{l}', ${textArray(ADJECTIVES)}[1 + ${h(16)} % ${sql.lit(ADJECTIVES.length)}]),
          '{a}', ${textArray(AUDIENCES)}[1 + ${h(17)} % ${sql.lit(AUDIENCES.length)}]),
        'Learn ' || topic || ' with ' || i.name || ': short lessons, real projects and exercises you can ' ||
          'follow at your own pace, from the first steps to the skills employers ask for.',
        (array[${sql.join(slugs.map((slug) => sql`${categoryId(slug)}::uuid`))}])[cat],
        i.id, i.name,
        case when ${h(18)} % 20 = 0 then 0
          else (array[1299, 1999, 1999, 2499, 2999, 3499, 4999, 4999, 5999, 6999, 7999, 8999, 9999, 11999, 12999,
            14999, 17999, 19999])[1 + ${h(19)} % 18] end,
        case when ${h(20)} % 3 = 0 then 19999 end,
        -- Mostly 4.x, a tail of poor ones; popular courses rate a little higher.
        case when ${h(21)} % 25 = 0 then round((1 + 2 * ${u(22)})::numeric, 1)::float8
          else round(least(5, 3.3 + 1.4 * sqrt(${u(23)}) + 0.3 * popularity)::numeric, 1)::float8 end,
        -- Heavy-tailed review counts: most courses have a few dozen, a few have tens of thousands.
        floor(exp(10.5 * power(popularity, 1.6)))::int - 1,
        (floor(exp(10.5 * power(popularity, 1.6)))::int - 1) * (5 + ${h(24)} % 20),
        (array['beginner', 'beginner', 'intermediate', 'intermediate', 'advanced'])[1 + ${h(25)} % 5],
        30 + floor(2400 * power(${u(26)}, 2))::int,
        5 + ${h(27)} % 180,
        case when ${h(28)} % 50 = 0 then 'draft' else 'published' end,
        ${h(29)} % 10000 = 0,
        now() - make_interval(secs => floor(5 * 365 * 86400 * ${u(30)})::int),
        now() - make_interval(secs => floor(90 * 86400 * ${u(31)})::int),
        case when ${h(28)} % 50 <> 0 then now() - make_interval(secs => floor(5 * 365 * 86400 * ${u(30)})::int) end
      from titled join instructors_by_n i on i.n = titled.instructor_n`.execute(db)
    options.onProgress?.(end)
  }
}
