// The reported-posts queue (issue 33): one row per reported question or answer with how many people reported it and
// their reasons; the course's instructors and staff hide, restore or dismiss. The server decides whose courses appear
// and refuses anyone else (questions.reportQueue); this list only shows what it answers.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { button } from '#client/components/ui/button.ts'
import { QueryList } from '#client/components/ui/QueryList.tsx'
import { notify, notifyError, reloadThenToast } from '#client/components/ui/toaster.tsx'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { css, cx } from '#styled-system/css'
import { borderedCard } from '../ui/card.ts'

const body = css({ mt: '2', overflowWrap: 'anywhere' })
const card = cx(borderedCard, css({ p: '4' }))

export function ReportedPosts() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const queue = useQuery(trpc.questions.reportQueue.queryOptions({}))
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.questions.pathKey() })
  const hide = useMutation(
    trpc.questions.hide.mutationOptions({
      onSuccess: async (result) => {
        await refresh()
        notify('success', result.hidden ? 'Post hidden' : 'Post restored')
      },
      onError: (error) => notifyError(error),
    }),
  )
  const dismiss = useMutation(
    trpc.questions.dismissReports.mutationOptions(reloadThenToast(refresh, 'Reports dismissed')),
  )
  const busy = hide.isPending || dismiss.isPending
  return (
    <QueryList
      query={queue}
      loading="Loading reported posts…"
      failed="Could not load reported posts"
      empty="No reported posts"
      emptyAction={<p>Nothing waits for a decision.</p>}
    >
      {(posts) => (
        <ul className={css({ display: 'grid', gap: '3', listStyle: 'none', p: 0 })}>
          {posts.map((post) => {
            const what = post.answerId ? `the answer by ${post.author}` : `the question “${post.questionTitle}”`
            const ref = { questionId: post.questionId, answerId: post.answerId ?? undefined }
            return (
              <li key={`${post.questionId}-${post.answerId ?? ''}`} className={card} data-testid="reported-post">
                <p className={css({ fontSize: 'sm', color: 'muted' })}>
                  {post.courseTitle} · {post.lessonTitle} · {post.answerId ? 'Answer' : 'Question'} by {post.author}
                  {post.hidden ? ' · Hidden' : ''}
                </p>
                <h2 className={css({ fontWeight: 'semibold', mt: '1' })}>{post.questionTitle}</h2>
                {/* biome-ignore lint/security/noDangerouslySetInnerHtml: rendered from Markdown and sanitised on the server (learning/markdown.ts renderPostMarkdown) */}
                <div className={body} dangerouslySetInnerHTML={{ __html: post.html }} />
                <p className={css({ mt: '2', fontSize: 'sm' })} data-testid="reporters">
                  Reported by {post.reporters} {post.reporters === 1 ? 'person' : 'people'}: {post.reasons.join('; ')}
                </p>
                <div className={css({ display: 'flex', gap: '2', mt: '3', flexWrap: 'wrap' })}>
                  <button
                    type="button"
                    className={button({ variant: 'outline', size: 'sm' })}
                    aria-label={`${post.hidden ? 'Restore' : 'Hide'} ${what}`}
                    {...whilePending(busy, 'onClick', () => hide.mutate({ ...ref, hidden: !post.hidden }))}
                  >
                    {post.hidden ? 'Restore' : 'Hide'}
                  </button>
                  <button
                    type="button"
                    className={button({ variant: 'ghost', size: 'sm' })}
                    aria-label={`Dismiss the reports of ${what}`}
                    {...whilePending(busy, 'onClick', () => dismiss.mutate(ref))}
                  >
                    Dismiss
                  </button>
                </div>
              </li>
            )
          })}
        </ul>
      )}
    </QueryList>
  )
}
