// Dashboard numbers, all counted in the database.

import { sql } from 'kysely'
import { STAFF_ROLES } from '../../src-shared/roles.ts'
import { SERVICE_ORDER_OPEN_STATUSES } from '../../src-shared/service-orders.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

export async function dashboardCounts(db: DB, now = clock.now()) {
  const row = await db
    .selectNoFrom([
      sql<string>`(select count(*) from courses where status != 'archived')`.as('courses'),
      sql<string>`(select count(*) from courses where status = 'published')`.as('published'),
      sql<string>`(select count(*) from categories)`.as('categories'),
      sql<string>`(select count(*) from users where role in (${sql.join([...STAFF_ROLES])}))`.as('team'),
      sql<string>`(select count(*) from service_orders where status = 'brief_needed')`.as('awaiting_brief'),
      sql<string>`(select count(*) from service_orders
        where due_at < ${now} and status in (${sql.join([...SERVICE_ORDER_OPEN_STATUSES])}))`.as('overdue'),
      // Premium promises a monthly live webinar: staff schedule it (a session for all members has no course).
      sql<Date | null>`(select min(starts_at) from live_sessions
        where course_id is null and cancelled_at is null and starts_at >= ${now})`.as('next_webinar'),
    ])
    .executeTakeFirstOrThrow()
  return {
    courses: Number(row.courses),
    publishedCourses: Number(row.published),
    categories: Number(row.categories),
    teamMembers: Number(row.team),
    serviceOrdersAwaitingBrief: Number(row.awaiting_brief),
    serviceOrdersOverdue: Number(row.overdue),
    nextPremiumWebinar: row.next_webinar ? new Date(row.next_webinar).toISOString() : null,
  }
}
