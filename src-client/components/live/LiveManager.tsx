// Managing live sessions (issue 34): schedule (for a course, or all Premium members for staff), reschedule (members
// get the calendar update), cancel, attach the recording afterwards, and read who opened the join link. A session of a
// course not yet on sale is hidden from learners (decision 0111): the form and the list say so (decision 0142).

import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { boxHeading, TitledSection } from '#client/components/ui/layout.tsx'
import { countOf } from '#client/lib/format.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { firstIssueByField } from '#shared/native-form.ts'
import { sessionFieldsInput } from '#shared/schemas/live.ts'
import { css, cx } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { borderedCard } from '../ui/card.ts'
import { useFieldErrors } from '../ui/field-errors.tsx'
import { ChoiceCard, FormAlert, Options, SelectField, TextAreaField, TextField } from '../ui/form.tsx'
import { notify, notifyError } from '../ui/toaster.tsx'

const card = cx(borderedCard, css({ p: '5' }))
const grid = css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } })

const FIELDS = ['title', 'description', 'localStart', 'timeZone', 'durationMinutes', 'capacity', 'joinUrl'] as const

type SessionFields = {
  title: string
  description: string
  localStart: string
  timeZone: string
  durationMinutes: number
  capacity: number
  joinUrl: string
}

type Session = {
  id: string
  title: string
  description: string
  courseId: string | null
  courseTitle: string | null
  startsAt: string
  localStart: string
  durationMinutes: number
  timeZone: string
  capacity: number
  joinUrl: string
  cancelled: boolean
  registered: number
  waitlisted: number
  past: boolean
  recordingUrl: string | null
  recordingLessonId: string | null
  hiddenFromLearners: boolean
}

/** A course the person may schedule for; `hiddenFromLearners`: never on sale yet (draft, in review). */
type Course = { id: string; title: string; hiddenFromLearners: boolean }

/** Why a session of a course not yet on sale has no audience (decision 0111). */
const HIDDEN_SESSION_NOTE = 'Learners can’t see this session until the course is published.'

const zones = (() => {
  try {
    return Intl.supportedValuesOf('timeZone')
  } catch {
    return ['UTC']
  }
})()

function browserZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
  } catch {
    return 'UTC'
  }
}

function SessionForm({
  session,
  courses,
  canSchedulePremium,
  onDone,
}: {
  session?: Session
  courses: Course[]
  canSchedulePremium: boolean
  onDone: () => void
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const fieldErrors = useFieldErrors<(typeof FIELDS)[number]>()
  const schedule = useMutation(trpc.live.schedule.mutationOptions())
  const update = useMutation(trpc.live.update.mutationOptions())
  const busy = schedule.isPending || update.isPending
  const [zone] = useState(() => session?.timeZone ?? browserZone())
  // The server lists courses on sale first: the default is one whose learners will see the session.
  const [courseId, setCourseId] = useState(() => courses[0]?.id ?? '')
  const chosen = courses.find((course) => course.id === courseId)
  const zoneOptions = zones.includes(zone) ? zones : [zone, ...zones]
  const prefix = session ? `edit-${session.id}` : 'new'
  /** A field's name, its id (unique per form on the page) and the server's message for it. */
  const field = (name: keyof SessionFields, id: string) => ({
    name,
    id: `${prefix}-${id}`,
    error: fieldErrors.errors[name],
  })

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    // Kept: React lets go of the event's currentTarget once the handler returns, before the answer comes.
    const form = event.currentTarget
    const data = new FormData(form)
    const text = (name: string) => String(data.get(name) ?? '')
    const fields: SessionFields = {
      title: text('title'),
      description: text('description'),
      localStart: text('localStart'),
      timeZone: text('timeZone'),
      durationMinutes: Number(text('durationMinutes')),
      capacity: Number(text('capacity')),
      joinUrl: text('joinUrl'),
    }
    // The shared schema's check first: its messages under the fields (not the browser's bubbles), nothing sent.
    const checked = sessionFieldsInput.safeParse(fields)
    if (!checked.success) {
      fieldErrors.show(firstIssueByField(checked.error.issues))
      return
    }
    fieldErrors.clear()
    try {
      if (session) {
        const result = await update.mutateAsync({ sessionId: session.id, ...fields })
        notify('success', result.moved ? 'Session rescheduled; members are being e-mailed the update' : 'Session saved')
      } else {
        const course = text('courseId')
        await schedule.mutateAsync({ ...fields, courseId: course === '' ? undefined : course })
        notify('success', 'Session scheduled')
        form.reset()
      }
      await queryClient.invalidateQueries({ queryKey: trpc.live.pathKey() })
      onDone()
    } catch (error) {
      fieldErrors.fromError(error, FIELDS)
    }
  }

  return (
    <form
      {...SCRIPT_ONLY_FORM}
      ref={fieldErrors.formRef}
      onSubmit={submit}
      aria-label={session ? `Edit ${session.title}` : 'Schedule a session'}
      noValidate
    >
      <FormAlert>{fieldErrors.formError}</FormAlert>
      <div className={grid}>
        {session ? null : (
          <SelectField
            label="For"
            name="courseId"
            id={`${prefix}-course`}
            value={courseId}
            onChange={(event) => setCourseId(event.target.value)}
            hint={chosen?.hiddenFromLearners ? HIDDEN_SESSION_NOTE : undefined}
          >
            <Options
              items={courses}
              value={(course) => course.id}
              label={(course) => (course.hiddenFromLearners ? `${course.title} (not published)` : course.title)}
            />
            {canSchedulePremium ? <option value="">All Premium members</option> : null}
          </SelectField>
        )}
        <TextField label="Title" {...field('title', 'title')} required maxLength={200} defaultValue={session?.title} />
        <TextField
          label="Start (in the session's time zone)"
          {...field('localStart', 'start')}
          type="datetime-local"
          required
          defaultValue={session?.localStart}
        />
        <SelectField label="Time zone" {...field('timeZone', 'zone')} defaultValue={zone}>
          <Options items={zoneOptions} />
        </SelectField>
        <TextField
          label="Duration (minutes)"
          {...field('durationMinutes', 'duration')}
          type="number"
          min={5}
          max={600}
          required
          defaultValue={session?.durationMinutes ?? 60}
        />
        <TextField
          label="Capacity (seats)"
          {...field('capacity', 'capacity')}
          type="number"
          min={Math.max(1, session?.registered ?? 1)}
          max={100000}
          required
          defaultValue={session?.capacity ?? 100}
          // Seats given stay given: the server refuses a capacity under them (decision 0142).
          hint={
            session && session.registered > 0
              ? `${countOf(session.registered, 'seat')} taken: the capacity can’t go lower.`
              : undefined
          }
        />
        <TextField
          label="Join link (https)"
          {...field('joinUrl', 'join')}
          type="url"
          required
          placeholder="https://meet.example.com/…"
          defaultValue={session?.joinUrl}
          hint="Shown to registered members only, from 15 minutes before the start."
        />
      </div>
      <TextAreaField
        label="Description"
        {...field('description', 'description')}
        maxLength={5000}
        defaultValue={session?.description}
      />
      <button type="submit" className={button({ variant: 'primary' })} {...submitWhilePending(busy)}>
        {busy ? 'Saving…' : session ? 'Save changes' : 'Schedule session'}
      </button>
    </form>
  )
}

function Attendance({ sessionId }: { sessionId: string }) {
  const trpc = useTRPC()
  const { data, isPending, error } = useQuery(trpc.live.attendance.queryOptions({ sessionId }))
  if (isPending) return <p>Loading attendance…</p>
  if (error) return <FormAlert>Could not load the attendance</FormAlert>
  if (data.length === 0) return <p>No one has opened the join link yet.</p>
  return (
    <ul aria-label="Attendance" className={css({ listStyle: 'disc', pl: '5' })}>
      {data.map((row) => (
        <li key={row.email}>
          {row.name} ({row.email}), joined {formatDate(row.firstJoinedAt, 'mediumTime')}
        </li>
      ))}
    </ul>
  )
}

/**
 * The recording is a lesson of the course or a link, one of them (the server refuses both): a choice between the two,
 * then that one's field. A session for all Premium members has no course, so only a link.
 */
function RecordingForm({ session }: { session: Session }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const lessons = useQuery({
    ...trpc.live.lessons.queryOptions({ sessionId: session.id }),
    enabled: Boolean(session.courseId),
  })
  const [kind, setKind] = useState<'lesson' | 'link'>(() =>
    session.courseId && (session.recordingLessonId || !session.recordingUrl) ? 'lesson' : 'link',
  )
  const save = useMutation(
    trpc.live.recording.mutationOptions({
      onError: (error) => notifyError(error, 'Could not attach the recording'),
      onSuccess: async () => {
        notify('success', 'Recording attached')
        await queryClient.invalidateQueries({ queryKey: trpc.live.pathKey() })
      },
    }),
  )
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      aria-label={`Recording of ${session.title}`}
      onSubmit={(event) => {
        event.preventDefault()
        const data = new FormData(event.currentTarget)
        // Only the chosen one is sent: the other is cleared.
        if (kind === 'lesson') {
          const lessonId = String(data.get('lessonId') ?? '')
          save.mutate({ sessionId: session.id, lessonId: lessonId || undefined })
        } else save.mutate({ sessionId: session.id, url: String(data.get('url') ?? '') })
      }}
      className={css({ display: 'flex', flexDir: 'column', gap: '3', mt: '3' })}
    >
      {session.courseId ? (
        <fieldset className={css({ display: 'grid', gap: '2' })}>
          <legend className={css({ fontWeight: 'semibold', mb: '2' })}>The recording: a lesson or a link</legend>
          <ChoiceCard
            name={`rec-kind-${session.id}`}
            value="lesson"
            checked={kind === 'lesson'}
            onChoose={() => setKind('lesson')}
            label="A lesson of the course"
            detail="Learners of the course watch it in the course."
          />
          <ChoiceCard
            name={`rec-kind-${session.id}`}
            value="link"
            checked={kind === 'link'}
            onChoose={() => setKind('link')}
            label="A link"
            detail="An https address where the recording is (your video service)."
          />
        </fieldset>
      ) : null}
      {kind === 'lesson' ? (
        <SelectField
          label="Lesson"
          name="lessonId"
          id={`rec-lesson-${session.id}`}
          defaultValue={session.recordingLessonId ?? ''}
        >
          <option value="">No lesson</option>
          <Options items={lessons.data} value={(lesson) => lesson.id} label={(lesson) => lesson.title} />
        </SelectField>
      ) : (
        <TextField
          label="Recording link (https)"
          name="url"
          id={`rec-url-${session.id}`}
          type="url"
          defaultValue={session.recordingUrl ?? ''}
        />
      )}
      <button type="submit" className={button({ variant: 'outline' })} {...submitWhilePending(save.isPending)}>
        Save recording
      </button>
    </form>
  )
}

function SessionCard({
  session,
  courses,
  canSchedulePremium,
}: {
  session: Session
  courses: Course[]
  canSchedulePremium: boolean
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [editing, setEditing] = useState(false)
  const [showAttendance, setShowAttendance] = useState(false)
  const cancel = useMutation(
    trpc.live.cancelSession.mutationOptions({
      onError: (error) => notifyError(error, 'Could not cancel the session'),
      onSuccess: async () => {
        notify('success', 'Session cancelled; members are being e-mailed')
        await queryClient.invalidateQueries({ queryKey: trpc.live.pathKey() })
      },
    }),
  )
  return (
    <li className={card} aria-label={session.title}>
      <h3 className={css({ fontWeight: 'semibold', fontSize: 'lg' })}>{session.title}</h3>
      <p>
        {/* In the session's own zone, the one named after it (and the one its mails use), not the viewer's. */}
        {formatDate(session.startsAt, 'localDayTime', session.timeZone)} · {session.durationMinutes} min ·{' '}
        {session.timeZone}
      </p>
      <p>
        {session.courseTitle ?? 'All Premium members'} · {session.registered}/{session.capacity} seats
        {session.waitlisted ? ` · ${session.waitlisted} waitlisted` : ''}
        {session.cancelled ? ' · Cancelled' : ''}
      </p>
      {session.hiddenFromLearners && !session.cancelled ? (
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{HIDDEN_SESSION_NOTE}</p>
      ) : null}
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', mt: '3' })}>
        {!session.past && !session.cancelled ? (
          <>
            <button
              type="button"
              className={button({ variant: 'outline' })}
              onClick={() => setEditing(!editing)}
              aria-expanded={editing}
            >
              {editing ? 'Close' : 'Edit or reschedule'}
            </button>
            <button
              type="button"
              className={button({ variant: 'danger' })}
              {...whilePending(cancel.isPending, 'onClick', () => {
                if (window.confirm(`Cancel “${session.title}”? Registered members are told.`))
                  cancel.mutate({ sessionId: session.id })
              })}
            >
              Cancel session
            </button>
          </>
        ) : null}
        <button
          type="button"
          className={button({ variant: 'ghost' })}
          onClick={() => setShowAttendance(!showAttendance)}
          aria-expanded={showAttendance}
        >
          {showAttendance ? 'Hide attendance' : 'Attendance'}
        </button>
      </div>
      {editing ? (
        <SessionForm
          session={session}
          courses={courses}
          canSchedulePremium={canSchedulePremium}
          onDone={() => setEditing(false)}
        />
      ) : null}
      {showAttendance ? <Attendance sessionId={session.id} /> : null}
      {session.past && !session.cancelled ? <RecordingForm session={session} /> : null}
    </li>
  )
}

export function LiveManager() {
  const trpc = useTRPC()
  const { data } = useSuspenseQuery(trpc.live.studio.queryOptions())
  const upcoming = data.sessions.filter((s) => !s.past)
  const past = data.sessions.filter((s) => s.past)
  const canSchedule = data.courses.length > 0 || data.canSchedulePremium
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '6', minW: 0 })}>
      {canSchedule ? (
        <TitledSection id="new-session" title="Schedule a live session" className={card} titleClassName={boxHeading}>
          <SessionForm courses={data.courses} canSchedulePremium={data.canSchedulePremium} onDone={() => {}} />
        </TitledSection>
      ) : (
        <p>Live sessions are scheduled for a course you teach.</p>
      )}
      <SessionList
        id="upcoming-sessions"
        title="Upcoming"
        sessions={upcoming}
        none="No upcoming sessions."
        data={data}
      />
      <SessionList id="past-sessions" title="Past" sessions={past} none="No past sessions." data={data} />
    </div>
  )
}

function SessionList({
  id,
  title,
  sessions,
  none,
  data,
}: {
  id: string
  title: string
  sessions: Session[]
  none: string
  data: { courses: Course[]; canSchedulePremium: boolean }
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: '3' })}>
        {title}
      </h2>
      {sessions.length === 0 ? (
        <p>{none}</p>
      ) : (
        <ul className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
          {sessions.map((s) => (
            <SessionCard key={s.id} session={s} courses={data.courses} canSchedulePremium={data.canSchedulePremium} />
          ))}
        </ul>
      )}
    </section>
  )
}
