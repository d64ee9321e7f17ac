// Questions under a lesson (issue 33): ask (Markdown), answer, upvote, sort (newest, most upvoted, unanswered),
// search the whole course, "Load more" by keyset; instructors and staff mark answered and hide; anyone taking part
// may report. Everything is checked on the server (flows/lesson-questions.ts); the HTML comes sanitised from it.
// "Attach image" uploads to /api/learn/post-images (checked again there by its bytes) and inserts the Markdown it
// answers into the post's body at the cursor; saving the post ties the image to it.

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { SelectField, TextAreaField, TextField } from '#client/components/ui/form.tsx'
import { boxHeading, TitledSection } from '#client/components/ui/layout.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { countOf } from '#client/lib/format.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatDate } from '#shared/dates.ts'
import { OUTAGE } from '#shared/outage.ts'
import { POST_IMAGE_MAX_BYTES } from '#shared/schemas/questions.ts'
import { css } from '#styled-system/css'
import { contentCard as card } from '../ui/card.ts'

type Question = RouterOutputs['questions']['list']['items'][number]
type Sort = 'newest' | 'votes' | 'unanswered'

const prose = css({ fontSize: 'sm', '& p': { mb: '2' }, '& pre': { overflowX: 'auto' }, overflowWrap: 'anywhere' })
const meta = css({ fontSize: 'xs', color: 'fg.muted' })
const actions = css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center' })

export default function LessonQuestions({ courseId, lessonId }: { courseId: string; lessonId: string }) {
  const trpc = useTRPC()
  const [sort, setSort] = useState<Sort>('newest')
  const [search, setSearch] = useState('')
  const input = { courseId, sort, ...(search ? { search } : { lessonId }) }
  const list = useInfiniteQuery(
    trpc.questions.list.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
  )
  const items = list.data?.pages.flatMap((page) => page.items) ?? []
  const moderator = list.data?.pages[0]?.moderator ?? false
  return (
    <TitledSection id="questions-heading" title="Questions" className={card} titleClassName={boxHeading}>
      <AskForm courseId={courseId} lessonId={lessonId} />
      <form
        method="dialog"
        aria-label="Search questions"
        className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'flex-end', my: '4' })}
        onSubmit={(event) => {
          event.preventDefault()
          setSearch(String(new FormData(event.currentTarget).get('q') ?? '').trim())
        }}
      >
        <TextField
          label="Search this course's questions"
          name="q"
          type="search"
          className={css({ flex: '1 1 14rem' })}
        />
        <button type="submit" className={button({ variant: 'outline' })}>
          Search
        </button>
        <SelectField label="Sort" value={sort} onChange={(event) => setSort(event.target.value as Sort)}>
          <option value="newest">Newest</option>
          <option value="votes">Most upvoted</option>
          <option value="unanswered">Unanswered</option>
        </SelectField>
      </form>
      {search ? (
        <p className={meta}>
          Results for “{search}” in the whole course.{' '}
          <button type="button" className={css({ textDecoration: 'underline' })} onClick={() => setSearch('')}>
            Back to this lesson
          </button>
        </p>
      ) : null}
      {list.isPending ? <p className={meta}>Loading questions…</p> : null}
      {list.isError ? <p role="alert">Questions could not be loaded. Please try again.</p> : null}
      {list.isSuccess && items.length === 0 ? (
        <p className={meta}>{search ? 'No questions match.' : 'No questions yet. Ask the first one.'}</p>
      ) : null}
      <ol aria-label="Questions" className={css({ display: 'grid', gap: '3', mt: '3' })}>
        {items.map((question) => (
          <QuestionItem key={question.id} question={question} moderator={moderator} courseId={courseId} />
        ))}
      </ol>
      {list.hasNextPage ? (
        <button
          type="button"
          className={button({ variant: 'outline' })}
          aria-busy={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          Load more questions
        </button>
      ) : null}
    </TitledSection>
  )
}

/** A question's or answer's mutation: once it succeeded, the `form` it came from emptied, `reload` (the lists it
 * changed), then `message`; a failure says `failure` and the server's reason (posting too quickly, no access). */
function reloadThenSay(
  reload: () => Promise<unknown>,
  message: string,
  failure = 'That did not work',
  form?: RefObject<HTMLFormElement | null>,
) {
  return {
    onSuccess: async () => {
      form?.current?.reset()
      await reload()
      notify('success', message)
    },
    onError: (cause: unknown) => notifyError(cause, failure),
  }
}

function useRefreshQuestions(courseId: string) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: trpc.questions.list.pathKey() }).then(() => courseId)
}

/**
 * A post's form (a question, an answer), sent by its script only. `form` is its ref: an attached image inserts its
 * Markdown into the form's body, and a post that went through clears the form (reloadThenSay).
 */
function PostForm({
  form,
  label,
  onPost,
  children,
}: {
  form: RefObject<HTMLFormElement | null>
  label: string
  onPost: (data: FormData) => void
  children: ReactNode
}) {
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      ref={form}
      noValidate
      aria-label={label}
      className={css({ display: 'grid', gap: '2' })}
      onSubmit={(event) => {
        event.preventDefault()
        onPost(new FormData(event.currentTarget))
      }}
    >
      {children}
    </form>
  )
}

function AskForm({ courseId, lessonId }: { courseId: string; lessonId: string }) {
  const trpc = useTRPC()
  const refresh = useRefreshQuestions(courseId)
  const form = useRef<HTMLFormElement>(null)
  const [error, setError] = useState<string>()
  const ask = useMutation(
    trpc.questions.ask.mutationOptions(reloadThenSay(refresh, 'Question posted', 'Could not post your question', form)),
  )
  return (
    <PostForm
      form={form}
      label="Ask a question"
      onPost={(data) => {
        const title = String(data.get('title') ?? '').trim()
        if (!title) {
          setError('Give your question a title')
          return
        }
        setError(undefined)
        ask.mutate({ courseId, lessonId, title, body: String(data.get('body') ?? '') })
      }}
    >
      <TextField label="Your question" name="title" maxLength={200} error={error} />
      <TextAreaField label="Details (Markdown)" name="body" rows={3} maxLength={10_000} />
      <AttachImage courseId={courseId} lessonId={lessonId} form={form} label="Attach image" />
      <div>
        <button type="submit" className={button()} aria-busy={ask.isPending}>
          Post question
        </button>
      </div>
    </PostForm>
  )
}

function QuestionItem({ question, moderator, courseId }: { question: Question; moderator: boolean; courseId: string }) {
  const trpc = useTRPC()
  const refresh = useRefreshQuestions(courseId)
  const [open, setOpen] = useState(false)
  const done = (message: string) => reloadThenSay(refresh, message)
  const vote = useMutation(trpc.questions.vote.mutationOptions(done(question.voted ? 'Upvote removed' : 'Upvoted')))
  const mark = useMutation(trpc.questions.markAnswered.mutationOptions(done('Saved')))
  const hide = useMutation(trpc.questions.hide.mutationOptions(done(question.hidden ? 'Shown again' : 'Hidden')))
  const report = useMutation(trpc.questions.report.mutationOptions(done('Reported. Thank you.')))
  return (
    <li
      data-testid="question"
      className={css({
        borderWidth: '1px',
        borderColor: 'line',
        borderRadius: 'control',
        p: '3',
        display: 'grid',
        gap: '2',
      })}
    >
      <h3 className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>{question.title}</h3>
      <p className={meta}>
        {question.author} · {formatDate(question.createdAt, 'medium')}
        {question.lessonTitle ? ` · ${question.lessonTitle}` : ''}
        {question.answered ? <strong className={css({ color: 'success', ml: '2' })}>Answered</strong> : null}
        {question.hidden ? <strong className={css({ color: 'danger', ml: '2' })}>Hidden</strong> : null}
      </p>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: rendered from Markdown and sanitised on the server (learning/markdown.ts) */}
      <div className={prose} dangerouslySetInnerHTML={{ __html: question.html }} />
      <div className={actions}>
        <button
          type="button"
          aria-pressed={question.voted}
          aria-label={`Upvote: ${question.title} (${question.upvotes})`}
          className={button({ variant: 'outline', size: 'sm' })}
          onClick={() => vote.mutate({ questionId: question.id, up: !question.voted })}
        >
          ▲ {question.upvotes}
        </button>
        <button
          type="button"
          aria-expanded={open}
          className={button({ variant: 'ghost', size: 'sm' })}
          onClick={() => setOpen(!open)}
        >
          {countOf(question.answerCount, 'answer')}
        </button>
        {moderator ? (
          <>
            <button
              type="button"
              className={button({ variant: 'outline', size: 'sm' })}
              onClick={() => mark.mutate({ questionId: question.id, answered: !question.answered })}
            >
              {question.answered ? 'Mark unanswered' : 'Mark answered'}
            </button>
            <button
              type="button"
              className={button({ variant: 'ghost', size: 'sm' })}
              onClick={() => hide.mutate({ questionId: question.id, hidden: !question.hidden })}
            >
              {question.hidden ? 'Unhide' : 'Hide'}
            </button>
          </>
        ) : null}
        {!question.mine ? (
          <button
            type="button"
            className={button({ variant: 'ghost', size: 'sm' })}
            onClick={() => report.mutate({ questionId: question.id, reason: 'Reported from the lesson page' })}
          >
            Report
          </button>
        ) : null}
      </div>
      {open ? (
        <Answers questionId={question.id} courseId={courseId} lessonId={question.lessonId} moderator={moderator} />
      ) : null}
    </li>
  )
}

function Answers({
  questionId,
  courseId,
  lessonId,
  moderator,
}: {
  questionId: string
  courseId: string
  lessonId: string
  moderator: boolean
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const refresh = useRefreshQuestions(courseId)
  const answers = useQuery(trpc.questions.answers.queryOptions({ questionId }))
  const form = useRef<HTMLFormElement>(null)
  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.questions.answers.queryKey({ questionId }) })
    await refresh()
  }
  const answer = useMutation(
    trpc.questions.answer.mutationOptions(reloadThenSay(reload, 'Answer posted', 'Could not post your answer', form)),
  )
  const hide = useMutation(
    trpc.questions.hide.mutationOptions({
      onSuccess: reload,
      onError: (cause) => notifyError(cause, 'That did not work'),
    }),
  )
  return (
    <div className={css({ borderLeftWidth: '2px', borderColor: 'line', pl: '3', display: 'grid', gap: '2' })}>
      {answers.isPending ? <p className={meta}>Loading answers…</p> : null}
      {answers.isError ? <p role="alert">Answers could not be loaded.</p> : null}
      {answers.data?.length === 0 ? <p className={meta}>No answers yet.</p> : null}
      {answers.data?.map((item) => (
        <article key={item.id} data-testid="answer" className={css({ display: 'grid', gap: '1' })}>
          <p className={meta}>
            {item.author} · {formatDate(item.createdAt, 'medium')}
            {item.hidden ? <strong className={css({ color: 'danger', ml: '2' })}>Hidden</strong> : null}
          </p>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: rendered from Markdown and sanitised on the server (learning/markdown.ts) */}
          <div className={prose} dangerouslySetInnerHTML={{ __html: item.html }} />
          {moderator ? (
            <div>
              <button
                type="button"
                className={button({ variant: 'ghost', size: 'sm' })}
                onClick={() => hide.mutate({ questionId, answerId: item.id, hidden: !item.hidden })}
              >
                {item.hidden ? 'Unhide answer' : 'Hide answer'}
              </button>
            </div>
          ) : null}
        </article>
      ))}
      <PostForm
        form={form}
        label="Answer this question"
        onPost={(data) => {
          const body = String(data.get('body') ?? '').trim()
          if (body) answer.mutate({ questionId, body })
        }}
      >
        <TextAreaField label="Your answer (Markdown)" name="body" rows={3} maxLength={10_000} />
        {lessonId ? (
          <AttachImage courseId={courseId} lessonId={lessonId} form={form} label="Attach image to the answer" />
        ) : null}
        <div>
          <button type="submit" className={button({ size: 'sm' })} aria-busy={answer.isPending}>
            Post answer
          </button>
        </div>
      </PostForm>
    </div>
  )
}

type Uploaded = { markdown?: string; message?: string }

/** Posts one image with upload progress; resolves to the Markdown to insert, or null after a toast saying why not. */
function uploadPostImage(url: string, file: File, onProgress: (share: number) => void): Promise<string | null> {
  const fail = (message: string, detail?: string) => {
    notify('error', message, detail)
    return null
  }
  if (!file.type.startsWith('image/')) return Promise.resolve(fail('Please select an image file'))
  if (file.size > POST_IMAGE_MAX_BYTES) {
    return Promise.resolve(fail(`Images in posts should be less than ${POST_IMAGE_MAX_BYTES / (1024 * 1024)}MB`))
  }
  return new Promise((resolve) => {
    const request = new XMLHttpRequest()
    request.open('POST', url)
    request.withCredentials = true
    request.responseType = 'json'
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total)
    }
    request.onerror = () => resolve(fail('The image could not be uploaded. Please try again.'))
    request.onload = () => {
      const answer = (request.response ?? {}) as Uploaded
      if (request.status === 200 && answer.markdown) resolve(answer.markdown)
      else if (request.status === 503) resolve(fail(OUTAGE.title, OUTAGE.message))
      else
        resolve(
          fail(
            request.status < 500 && answer.message
              ? answer.message
              : 'The image could not be uploaded. Please try again.',
          ),
        )
    }
    const body = new FormData()
    body.append('file', file)
    request.send(body)
  })
}

/** A labelled file input: the chosen image is uploaded and its Markdown inserted into the form's `body` field. */
function AttachImage({
  courseId,
  lessonId,
  form,
  label,
}: {
  courseId: string
  lessonId: string
  form: RefObject<HTMLFormElement | null>
  label: string
}) {
  const [progress, setProgress] = useState<number | null>(null)
  const statusId = useId()
  const box = useRef<HTMLDivElement>(null)
  const endpoint = `/api/learn/post-images?courseId=${encodeURIComponent(courseId)}&lessonId=${encodeURIComponent(lessonId)}`
  async function attach(input: HTMLInputElement) {
    const file = input.files?.[0]
    if (!file) return
    setProgress(0)
    const markdown = await uploadPostImage(endpoint, file, setProgress)
    setProgress(null)
    input.value = ''
    const body = form.current?.elements.namedItem('body')
    if (!markdown || !(body instanceof HTMLTextAreaElement)) return
    const at = body.selectionEnd ?? body.value.length
    const before = body.value.slice(0, at)
    const gap = before && !before.endsWith('\n') ? '\n' : ''
    body.value = `${before}${gap}${markdown}\n${body.value.slice(at)}`
    body.focus()
    notify('success', 'Image attached')
  }
  // A file picked on the server-rendered page before this code arrived had no handler: attach it now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the picker comes to life
  useEffect(() => {
    const input = box.current?.querySelector<HTMLInputElement>('input[type=file]')
    if (input?.files?.length) void attach(input)
  }, [])
  return (
    // A file input has a wide intrinsic size: held to the column so a 320 px screen does not scroll sideways.
    <div
      ref={box}
      className={css({
        display: 'grid',
        gap: '1',
        minW: 0,
        '& input[type=file]': { w: 'full', maxW: 'full', minW: 0 },
      })}
    >
      <TextField
        label={label}
        type="file"
        accept="image/png,image/jpeg,image/gif,image/webp"
        disabled={progress !== null}
        hint="PNG, JPEG, GIF or WebP, up to 5 MB. Its Markdown is added to the text."
        onChange={(event) => void attach(event.currentTarget)}
      />
      <p id={statusId} aria-live="polite" className={meta}>
        {progress !== null ? (
          <>
            Uploading image… {Math.round(progress * 100)}%{' '}
            <progress max={1} value={progress} aria-label="Upload progress" />
          </>
        ) : null}
      </p>
    </div>
  )
}
