// The account page's E-mail preferences: whether a person's courses' news (a dripped section opening, a live session
// scheduled for a course they hold) comes by e-mail, for all their courses or course by course. Receipts, sign-in mails and what they asked for (a live
// session's invitation and reminder) always come. The server keeps the choice; the mails' footer links here.
import { useMutation, useQuery } from '@tanstack/react-query'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css } from '#styled-system/css'
import { ErrorState, LoadingState } from '../ui/states.tsx'
import { ToggleSwitch, useSwitchSaved } from '../ui/ToggleSwitch.tsx'
import { SectionCard } from './SectionCard.tsx'

export function MailPreferencesSection() {
  const trpc = useTRPC()
  const preferences = useQuery(trpc.profile.mailPreferences.queryOptions())
  const saved = useSwitchSaved(trpc.profile.mailPreferences.queryKey(), (result: { courseUpdates: boolean }) =>
    result.courseUpdates
      ? 'You will get your courses’ news by e-mail.'
      : 'You will no longer get your courses’ news by e-mail.',
  )
  const save = useMutation(trpc.profile.setMailPreferences.mutationOptions(saved))
  return (
    <SectionCard
      title="E-mail preferences"
      description="Receipts, sign-in e-mails and the invitations and reminders of live sessions you registered for always come."
    >
      {preferences.isPending ? (
        <LoadingState label="Loading your e-mail preferences…" />
      ) : preferences.isError ? (
        <ErrorState
          title="Could not load your e-mail preferences"
          error={preferences.error}
          onRetry={() => preferences.refetch()}
        />
      ) : (
        <div className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
          <ToggleSwitch
            checked={save.isPending ? (save.variables?.courseUpdates ?? false) : preferences.data.courseUpdates}
            disabled={save.isPending}
            onChange={(courseUpdates) => save.mutate({ courseUpdates })}
            label="Course news by e-mail"
          />
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            New lessons opening in your courses, and live sessions scheduled for them.
          </p>
          {preferences.data.courseUpdates ? <CourseNewsList muted={preferences.data.mutedCourseIds} /> : null}
        </div>
      )}
    </SectionCard>
  )
}

/** One switch per course the person holds: its news by e-mail, while the switch for all courses is on. */
function CourseNewsList({ muted }: { muted: readonly string[] }) {
  const trpc = useTRPC()
  const courses = useQuery(trpc.learning.myCourses.queryOptions())
  if (courses.isPending) return <LoadingState label="Loading your courses…" />
  if (courses.isError) {
    return <ErrorState title="Could not load your courses" error={courses.error} onRetry={() => courses.refetch()} />
  }
  if (courses.data.length === 0) return null
  return (
    <fieldset className={css({ mt: '3', display: 'flex', flexDir: 'column', gap: '2' })}>
      <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '2' })}>Course by course</legend>
      {courses.data.map((course) => (
        <CourseNewsSwitch key={course.id} course={course} wanted={!muted.includes(course.id)} />
      ))}
    </fieldset>
  )
}

function CourseNewsSwitch({ course, wanted }: { course: { id: string; title: string }; wanted: boolean }) {
  const trpc = useTRPC()
  const saved = useSwitchSaved(trpc.profile.mailPreferences.queryKey(), (result: { mutedCourseIds: string[] }) =>
    result.mutedCourseIds.includes(course.id)
      ? `You will no longer get news of “${course.title}” by e-mail.`
      : `You will get news of “${course.title}” by e-mail.`,
  )
  const save = useMutation(trpc.profile.setCourseNews.mutationOptions(saved))
  return (
    <ToggleSwitch
      checked={save.isPending ? (save.variables?.wanted ?? wanted) : wanted}
      disabled={save.isPending}
      onChange={(next) => save.mutate({ courseId: course.id, wanted: next })}
      label={course.title}
    />
  )
}
