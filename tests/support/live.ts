// A live session's row for the tests (integration and e2e), written straight into live_sessions as the studio's form
// would: three days ahead, an hour long, London time, 20 seats, a meeting link; anything else given overrides it.
import type { Insertable } from 'kysely'
import type { LiveSessionsTable } from '../../db/types.ts'

const DAY_MS = 86_400_000

export function liveSessionRow(
  session: { hostId: string; courseId: string | null; title: string } & Partial<Insertable<LiveSessionsTable>>,
): Insertable<LiveSessionsTable> {
  const { hostId, courseId, title, ...overrides } = session
  return {
    host_id: hostId,
    course_id: courseId,
    title,
    description: '',
    starts_at: new Date(Date.now() + 3 * DAY_MS),
    duration_minutes: 60,
    time_zone: 'Europe/London',
    capacity: 20,
    join_url: 'https://meet.example.com/abc-defg',
    ...overrides,
  }
}
