// One submission for staff: the course's details, its curriculum (each lesson opens as a learner sees it, video
// included), the checklist, for a revision its edits beside the live values and its new lessons; Approve, or
// Request changes with a comment per item (editors and up). The server checks the role and the plan again.

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { detailSection, inputClass, pageHead, pageTitle } from '#client/components/admin/styles.ts'
import { useStaff } from '#client/components/admin/use-staff.ts'
import { ReviewComments } from '#client/components/studio/ReviewComments.tsx'
import { badge } from '#client/components/ui/badge.ts'
import { button } from '#client/components/ui/button.ts'
import { Options, SelectField, TextAreaField } from '#client/components/ui/form.tsx'
import { markdownArticle } from '#client/components/ui/markdown-article.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { capitalise } from '#shared/constants.ts'
import {
  CHECKLIST_LABELS,
  REVIEW_FREE_ITEMS,
  reviewItemLabel,
  SUBMISSION_STATUS_LABELS,
} from '#shared/course-review.ts'
import { formatDate } from '#shared/dates.ts'
import { css, cx } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/course-reviews_/$id')({
  head: () => ({ meta: [{ title: 'Course review | SkillForge Admin' }] }),
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(
      context.trpc.admin.courseReviews.detail.queryOptions({ submissionId: params.id }),
    ),
  pendingComponent: () => <LoadingState label="Loading the submission…" />,
  errorComponent: routeError('Could not load this submission'),
  component: CourseReview,
})

const heading = css({ fontWeight: 'semibold', fontSize: 'lg' })
const descriptionArticle = cx(markdownArticle, css({ fontSize: 'sm' }))
const FIELD_LABELS: Record<string, string> = {
  title: 'Title',
  price: 'Price',
  description: 'Description',
}

function CourseReview() {
  const { trpc } = Route.useRouteContext()
  const { id } = Route.useParams()
  const { can } = useStaff()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { data } = useSuspenseQuery(trpc.admin.courseReviews.detail.queryOptions({ submissionId: id }))
  const decided = (message: string) => ({
    onSuccess: async () => {
      notify('success', message)
      // The queue is fetched again before going back to it (it is not on screen, so a plain invalidation would leave
      // the decided course listed until the page fetched it itself).
      await queryClient.invalidateQueries({ queryKey: trpc.admin.courseReviews.pathKey(), refetchType: 'all' })
      await queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() })
      await queryClient.invalidateQueries({ queryKey: trpc.catalog.pathKey() })
      await navigate({ to: '/admin/course-reviews' })
    },
    onError: (error: unknown) => {
      notifyError(error)
      // Refused because the creator edited the course since the page was opened: show what it holds now.
      void queryClient.invalidateQueries({ queryKey: trpc.admin.courseReviews.detail.queryKey({ submissionId: id }) })
    },
  })
  const approve = useMutation(
    trpc.admin.courseReviews.approve.mutationOptions(decided('Approved: the creator is being e-mailed')),
  )
  const { course, submission } = data
  const pending = submission.status === 'pending'
  const lessonTitles = data.sections.flatMap((s) => s.lessons.map((l) => l.title))

  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>{course.title}</h1>
        <span className={badge({ tone: submission.kind === 'first' ? 'blue' : 'yellow' })}>
          {submission.kind === 'first' ? 'New course' : 'Revision'} · {SUBMISSION_STATUS_LABELS[submission.status]}
        </span>
      </div>
      <p className={css({ mb: '4', fontSize: 'sm' })}>
        <Link to="/admin/course-reviews" className={css({ color: 'accent', textDecoration: 'underline' })}>
          ← Back to the queue
        </Link>{' '}
        · Submitted {formatDate(submission.submittedAt, 'mediumTime')} by {data.owner.name} ({data.owner.email ?? '—'})
      </p>
      <div className={css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', lg: '2fr 1fr' } })}>
        <div className={css({ display: 'flex', flexDir: 'column', gap: '4', minW: '0' })}>
          <section className={detailSection}>
            <h2 className={heading}>Course</h2>
            <img src={course.imageUrl} alt="" className={css({ maxW: 'sm', borderRadius: 'card' })} />
            <dl className={css({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '1 4', fontSize: 'sm' })}>
              <dt>Subtitle</dt>
              <dd>{course.subtitle || '—'}</dd>
              <dt>Category</dt>
              <dd>{course.categoryName ?? '—'}</dd>
              <dt>Level</dt>
              <dd>{capitalise(course.level)}</dd>
              <dt>Price</dt>
              <dd data-testid="review-price">{course.pricesLabel}</dd>
            </dl>
            {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown rendered and sanitised with an allow-list on the server (learning/markdown.ts) */}
            <div className={descriptionArticle} dangerouslySetInnerHTML={{ __html: course.descriptionHtml }} />
          </section>
          {data.diff.length > 0 || data.pendingLessons.length > 0 ? (
            <section className={detailSection} data-testid="revision-diff">
              <h2 className={heading}>Changes in this revision</h2>
              {data.diff.map((change) => (
                <div key={change.field} className={css({ fontSize: 'sm' })}>
                  <strong>{FIELD_LABELS[change.field] ?? change.field}</strong>
                  <p className={css({ color: 'fg.muted', textDecoration: 'line-through', whiteSpace: 'pre-line' })}>
                    {String(change.live)}
                  </p>
                  <p className={css({ whiteSpace: 'pre-line' })}>{String(change.draft)}</p>
                </div>
              ))}
              {data.pendingLessons.length > 0 ? (
                <p className={css({ fontSize: 'sm' })}>
                  New lessons: {data.pendingLessons.map((lesson) => lesson.title).join(', ')}
                </p>
              ) : null}
            </section>
          ) : null}
          <section className={detailSection}>
            <h2 className={heading}>Curriculum ({course.lessonsCount} lessons)</h2>
            {data.sections.map((s) => (
              <div key={s.id}>
                <h3 className={css({ fontWeight: 'medium' })}>{s.title}</h3>
                <ul className={css({ fontSize: 'sm', pl: '4' })}>
                  {s.lessons.map((lesson) => (
                    <li key={lesson.id} className={css({ py: '1' })}>
                      <Link
                        to="/learn/$courseId/$lessonId"
                        params={{ courseId: course.id, lessonId: lesson.id }}
                        className={css({ color: 'accent', textDecoration: 'underline' })}
                      >
                        {lesson.title}
                      </Link>{' '}
                      <span className={css({ color: 'fg.muted' })}>
                        {lesson.kind}
                        {lesson.video ? ` · video ${lesson.video === 'uploaded' ? 'uploaded' : 'link'}` : ''}
                        {lesson.questionCount !== null
                          ? ` · ${lesson.questionCount} ${lesson.questionCount === 1 ? 'question' : 'questions'}`
                          : ''}
                        {lesson.isPreview ? ' · preview' : ''}
                        {lesson.pendingReview ? ' · new' : ''}
                      </span>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </section>
        </div>
        <div className={css({ display: 'flex', flexDir: 'column', gap: '4', minW: '0' })}>
          <section className={detailSection}>
            <h2 className={heading}>Checklist</h2>
            <ul className={css({ fontSize: 'sm', display: 'flex', flexDir: 'column', gap: '1' })}>
              {data.checklist.map((item) => (
                <li key={item.id}>
                  {item.done ? '✓' : '✗'} {item.label} — {item.detail}
                </li>
              ))}
            </ul>
          </section>
          {pending && can('editor') ? (
            <section className={detailSection}>
              <h2 className={heading}>Decision</h2>
              <button
                type="button"
                className={button()}
                {...whilePending(approve.isPending, 'onClick', () =>
                  approve.mutate({ submissionId: submission.id, version: data.version }),
                )}
              >
                {approve.isPending
                  ? 'Approving…'
                  : submission.kind === 'first'
                    ? 'Approve and publish'
                    : 'Approve the changes'}
              </button>
              <RequestChanges submissionId={submission.id} lessonTitles={lessonTitles} onDone={decided} />
            </section>
          ) : null}
          {data.history.length > 0 ? (
            <section className={detailSection}>
              <h2 className={heading}>Earlier submissions</h2>
              {data.history.map((h) => (
                <div key={h.id} className={css({ fontSize: 'sm' })}>
                  {formatDate(h.submittedAt, 'medium')}: {SUBMISSION_STATUS_LABELS[h.status]}
                  <ReviewComments comments={h.comments} />
                </div>
              ))}
            </section>
          ) : null}
        </div>
      </div>
    </>
  )
}

type Row = { key: number; item: string; comment: string }
let nextRowKey = 1

function RequestChanges({
  submissionId,
  lessonTitles,
  onDone,
}: {
  submissionId: string
  lessonTitles: string[]
  onDone: (message: string) => { onSuccess: () => Promise<void>; onError: (error: unknown) => void }
}) {
  const { trpc } = Route.useRouteContext()
  const [rows, setRows] = useState<Row[]>(() => [{ key: nextRowKey++, item: 'description', comment: '' }])
  const request = useMutation(
    trpc.admin.courseReviews.requestChanges.mutationOptions(onDone('Changes requested: the creator is being e-mailed')),
  )
  const items = [
    ...Object.keys(CHECKLIST_LABELS).filter((item) => item !== 'plan'),
    ...REVIEW_FREE_ITEMS,
    ...lessonTitles.map((title) => `lesson: ${title}`),
  ]
  const update = (index: number, patch: Partial<Row>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...patch } : row)))
  function submit(event: FormEvent) {
    event.preventDefault()
    request.mutate({
      submissionId,
      comments: rows.filter((row) => row.comment.trim() !== '').map(({ item, comment }) => ({ item, comment })),
    })
  }
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      onSubmit={submit}
      className={css({ display: 'flex', flexDir: 'column', gap: '3', mt: '3' })}
    >
      <h3 className={css({ fontWeight: 'medium' })}>Request changes</h3>
      {rows.map((row, index) => (
        <fieldset
          key={row.key}
          className={css({
            display: 'flex',
            flexDir: 'column',
            gap: '2',
            borderTopWidth: '1px',
            borderColor: 'line',
            pt: '2',
          })}
        >
          <legend className={css({ srOnly: true })}>Comment {index + 1}</legend>
          <SelectField
            label={`About (comment ${index + 1})`}
            controlClassName={inputClass}
            value={row.item}
            onChange={(event) => update(index, { item: event.target.value })}
          >
            <Options items={items} label={(item) => reviewItemLabel(item)} />
          </SelectField>
          <TextAreaField
            label={`What should change (comment ${index + 1})`}
            value={row.comment}
            maxLength={2000}
            onChange={(event) => update(index, { comment: event.target.value })}
          />
        </fieldset>
      ))}
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          disabled={rows.length >= 30}
          onClick={() => setRows((current) => [...current, { key: nextRowKey++, item: 'other', comment: '' }])}
        >
          Add a comment
        </button>
        {rows.length > 1 ? (
          <button
            type="button"
            className={button({ variant: 'ghost', size: 'sm' })}
            onClick={() => setRows((current) => current.slice(0, -1))}
          >
            Remove the last comment
          </button>
        ) : null}
      </div>
      <button
        type="submit"
        className={button({ variant: 'outline' })}
        {...submitWhilePending(request.isPending || rows.every((row) => row.comment.trim() === ''))}
      >
        {request.isPending ? 'Sending…' : 'Request changes'}
      </button>
    </form>
  )
}
