// The publish page of a course in the studio (under the course's header, which shows its state): the checklist the server enforces (ticked live), the plan
// and its slots, the latest review's outcome with the staff's comments per item, Submit/Withdraw, the owner's
// Unpublish/Republish/Delete, and the owner's team panel. The server checks the course's role on every call.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { ReviewComments } from '#client/components/studio/ReviewComments.tsx'
import { TeamPanel } from '#client/components/studio/TeamPanel.tsx'
import { button } from '#client/components/ui/button.ts'
import { studioCard as card } from '#client/components/ui/panel.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError, toastOutcome } from '#client/components/ui/toaster.tsx'
import { requireUser } from '#client/lib/session.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { SUBMISSION_STATUS_LABELS } from '#shared/course-review.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/studio/courses/$courseId/publish')({
  beforeLoad: async ({ context, location }) => ({ user: await requireUser(context, location.href) }),
  head: () => ({ meta: [{ title: 'Publish | SkillForge Studio' }, { name: 'robots', content: 'noindex' }] }),
  loader: async ({ context, params }) => {
    const page = await context.queryClient.ensureQueryData(
      context.trpc.studioPublishing.page.queryOptions({ courseId: params.courseId }),
    )
    if (page.role === 'owner') {
      await context.queryClient.prefetchQuery(
        context.trpc.studioPublishing.team.queryOptions({ courseId: params.courseId }),
      )
    }
  },
  pendingComponent: () => <LoadingState label="Loading the publish page…" />,
  errorComponent: routeError('Could not load this course'),
  component: PublishPage,
})

const heading = css({ fontSize: 'lg', fontWeight: 'semibold', mb: '3' })
const actions = css({ display: 'flex', flexWrap: 'wrap', gap: '3', mt: '4' })

type Confirm = 'unpublish' | 'delete' | null

function PublishPage() {
  const { trpc } = Route.useRouteContext()
  const { courseId } = Route.useParams()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { data: page } = useSuspenseQuery({
    ...trpc.studioPublishing.page.queryOptions({ courseId }),
    // While a lesson's video is transcoding, ask again every 3 s: the checklist ticks itself when it is done.
    refetchInterval: (query) => (query.state.data?.videosProcessing ? 3000 : false),
  })
  const [confirm, setConfirm] = useState<Confirm>(null)
  // The course's state shows in the studio's course header too (studio.course) and in My courses.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.studioPublishing.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.studio.pathKey() }),
    ])
  const done = (message: string) =>
    toastOutcome(message, () => {
      setConfirm(null)
      return refresh()
    })
  const submit = useMutation(trpc.studioPublishing.submit.mutationOptions(done('Submitted for review')))
  const withdraw = useMutation(trpc.studioPublishing.withdraw.mutationOptions(done('Submission withdrawn')))
  const unpublish = useMutation(trpc.studioPublishing.unpublish.mutationOptions(done('Course unpublished')))
  const republish = useMutation(trpc.studioPublishing.republish.mutationOptions(done('Course published again')))
  const remove = useMutation(
    trpc.studioPublishing.delete.mutationOptions({
      onSuccess: async () => {
        notify('success', 'Course deleted')
        // Away from the course first: its own queries would only answer not found now.
        await navigate({ to: '/studio' })
        await queryClient.invalidateQueries({ queryKey: trpc.studio.myCourses.pathKey() })
      },
      onError: (error) => {
        setConfirm(null)
        notifyError(error)
      },
    }),
  )
  const owner = page.role === 'owner'
  const latest = page.latestSubmission
  const waiting = latest?.status === 'pending'
  const busy = submit.isPending || withdraw.isPending || unpublish.isPending || republish.isPending || remove.isPending

  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '6', minW: 0 })}>
      <section className={card} aria-labelledby="checklist-title">
        <h2 id="checklist-title" className={heading}>
          Before review
        </h2>
        <ul className={css({ display: 'flex', flexDir: 'column', gap: '2' })} data-testid="checklist">
          {page.checklist.map((item) => (
            <li key={item.id} className={css({ display: 'flex', gap: '2', alignItems: 'flex-start' })}>
              <span aria-hidden="true" className={css({ color: item.done ? 'success' : 'danger', fontWeight: 'bold' })}>
                {item.done ? '✓' : '✗'}
              </span>
              <span>
                <span className={css({ fontWeight: 'medium' })}>{item.label}</span>
                <span className={css({ srOnly: true })}>{item.done ? ' (done)' : ' (missing)'}</span>
                <span className={css({ display: 'block', fontSize: 'sm', color: 'fg.muted' })}>{item.detail}</span>
              </span>
            </li>
          ))}
        </ul>
        {page.planThatFits ? (
          <p className={css({ mt: '4', fontSize: 'sm' })} data-testid="plan-advice">
            {page.plan.live
              ? `Your ${page.plan.name ?? ''} plan has no free publishing slot.`
              : 'You can build drafts without a plan; publishing needs one.'}{' '}
            The {page.planThatFits.name} plan fits:{' '}
            <Link to="/pricing" className={css({ color: 'accent', textDecoration: 'underline' })}>
              see Pricing
            </Link>
            .
          </p>
        ) : page.plan.live ? (
          <p className={css({ mt: '4', fontSize: 'sm', color: 'fg.muted' })}>
            {page.plan.name} plan: {page.plan.publishedCourses} of {page.plan.publishedLimit ?? 'unlimited'} publishing
            slots used.
          </p>
        ) : null}
        <div className={actions}>
          {waiting ? (
            <button
              type="button"
              className={button({ variant: 'outline' })}
              {...whilePending(busy, 'onClick', () => withdraw.mutate({ courseId }))}
            >
              {withdraw.isPending ? 'Withdrawing…' : 'Withdraw from review'}
            </button>
          ) : (
            <button
              type="button"
              className={button()}
              aria-describedby={!page.canSubmit ? 'submit-why' : undefined}
              {...whilePending(busy || !page.canSubmit, 'onClick', () => submit.mutate({ courseId }))}
            >
              {submit.isPending
                ? 'Submitting…'
                : page.submitKind === 'revision'
                  ? 'Submit changes for review'
                  : 'Submit for review'}
            </button>
          )}
          {!page.canSubmit && !waiting ? (
            <p id="submit-why" className={css({ fontSize: 'sm', color: 'fg.muted', alignSelf: 'center' })}>
              {page.cannotSubmitReason || 'Complete every item above to submit.'}
            </p>
          ) : null}
        </div>
      </section>

      <section className={card} aria-labelledby="review-title">
        <h2 id="review-title" className={heading}>
          Review
        </h2>
        {latest ? (
          <div data-testid="latest-submission">
            <p>
              {latest.kind === 'revision' ? 'Changes' : 'Course'} submitted {formatDate(latest.createdAt, 'medium')}:{' '}
              <strong>{SUBMISSION_STATUS_LABELS[latest.status]}</strong>
              {latest.decidedAt ? ` (${formatDate(latest.decidedAt, 'medium')})` : ''}
            </p>
            {latest.status === 'changes_requested' ? <ReviewComments comments={latest.comments} /> : null}
          </div>
        ) : (
          <p className={css({ color: 'fg.muted' })}>Not submitted yet.</p>
        )}
      </section>

      {owner ? (
        <section className={card} aria-labelledby="sale-title">
          <h2 id="sale-title" className={heading}>
            On sale
          </h2>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            Unpublishing hides the course from the catalogue; learners who bought it keep it. A course can be deleted
            only while nobody holds it.
          </p>
          <div className={actions}>
            {page.course.status === 'published' ? (
              <button
                type="button"
                className={button({ variant: 'outline' })}
                {...whilePending(busy, 'onClick', () => setConfirm('unpublish'))}
              >
                Unpublish
              </button>
            ) : null}
            {page.course.status === 'unpublished' ? (
              <button
                type="button"
                className={button()}
                {...whilePending(busy, 'onClick', () => republish.mutate({ courseId }))}
              >
                {republish.isPending ? 'Publishing…' : 'Republish'}
              </button>
            ) : null}
            <button
              type="button"
              className={button({ variant: 'danger' })}
              {...whilePending(busy, 'onClick', () => setConfirm('delete'))}
            >
              Delete course
            </button>
          </div>
        </section>
      ) : null}

      {owner ? <TeamPanel courseId={courseId} /> : null}

      <ConfirmDialog
        open={confirm === 'unpublish'}
        title="Unpublish this course?"
        description="It leaves the catalogue, search and sitemap; learners who bought it keep their access."
        confirmLabel="Unpublish"
        pending={unpublish.isPending}
        onConfirm={() => unpublish.mutate({ courseId })}
        onCancel={() => setConfirm(null)}
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        title="Delete this course?"
        description="The course, its lessons and their videos are deleted for good."
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ courseId })}
        onCancel={() => setConfirm(null)}
      />
    </div>
  )
}
