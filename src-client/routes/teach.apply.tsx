// /teach/apply: the application to teach. A visitor is sent to sign up and comes back here; a creator goes to the
// studio's door (/teach); someone with an open application sees its status instead of a second form. The server
// checks everything again (one open application, 30 days after a decline, the file by its bytes). A CV goes by the
// PDF route; a sample video is sent over tus as lesson videos are (progress, pause/resume, resumable), and the form
// names it by its upload id.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { type UploadedVideo, VideoUpload } from '#client/components/studio/VideoUpload.tsx'
import { ApplicationStatus } from '#client/components/teach/ApplicationStatus.tsx'
import { button } from '#client/components/ui/button.ts'
import { useFieldErrors } from '#client/components/ui/field-errors.tsx'
import { CheckboxField, FormAlert, TextAreaField, TextField } from '#client/components/ui/form.tsx'
import { Container } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState, Spinner } from '#client/components/ui/states.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import { errorMessage } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { sessionQuery } from '#client/lib/session.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { firstIssueByField } from '#shared/native-form.ts'
import {
  APPLICATION_PDF_MAX_BYTES,
  applicationInput,
  CATEGORIES_MAX,
  PROPOSAL_MAX,
  PROPOSAL_MIN,
} from '#shared/schemas/creators.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/teach/apply')({
  beforeLoad: async ({ context }) => {
    const user = await context.queryClient.ensureQueryData(sessionQuery(context.trpc)).catch(() => null)
    if (!user) throw redirect({ to: '/signup', search: { redirect: '/teach/apply' } })
    if (user.isCreator) throw redirect({ to: '/teach' })
  },
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(context.trpc.catalog.categories.queryOptions()),
      context.queryClient.ensureQueryData(context.trpc.creators.myApplication.queryOptions()),
    ]),
  head: () => ({ meta: [{ title: 'Apply to teach | SkillForge' }] }),
  pendingComponent: () => <LoadingState label="Loading the application form…" />,
  errorComponent: routeError('Could not load the application form'),
  component: ApplyPage,
})

type Field = 'headline' | 'categories' | 'proposal' | 'website' | 'linkedin' | 'youtube' | 'attachment'

function ApplyPage() {
  const { trpc } = Route.useRouteContext()
  const categories = useQuery(trpc.catalog.categories.queryOptions())
  const mine = useQuery(trpc.creators.myApplication.queryOptions())
  const open =
    mine.data &&
    (mine.data.status !== 'declined' || (mine.data.reapplyFrom && new Date(mine.data.reapplyFrom) > new Date()))
  return (
    <main>
      <PageIntro title="Apply to teach">Tell us about you and the course you want to teach.</PageIntro>
      <Container className={css({ pt: '8', pb: '16', maxW: '3xl' })}>
        {open && mine.data ? (
          <ApplicationStatus application={mine.data} />
        ) : (
          <ApplicationForm categories={categories.data ?? []} />
        )}
      </Container>
    </main>
  )
}

/** Sends the attached CV first (the PDF route judges it by its bytes); its answer goes with the form. */
async function uploadAttachment(file: File): Promise<{ key: string; name: string }> {
  const body = new FormData()
  body.append('file', file)
  const response = await fetch('/api/creator-applications/attachment', {
    method: 'POST',
    body,
    credentials: 'same-origin',
  })
  const answer = (await response.json().catch(() => ({}))) as { key?: string; name?: string; message?: string }
  if (!response.ok || !answer.key)
    throw new Error(answer.message ?? 'The file could not be uploaded. Please try again.')
  return { key: answer.key, name: answer.name ?? file.name }
}

function ApplicationForm({ categories }: { categories: { slug: string; name: string }[] }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const { errors, formError, formRef, show } = useFieldErrors<Field>()
  const [proposalLength, setProposalLength] = useState(0)
  const [uploading, setUploading] = useState(false)
  const [video, setVideo] = useState<UploadedVideo | null>(null)
  const [videoBusy, setVideoBusy] = useState(false)
  const submit = useMutation(trpc.creators.submitApplication.mutationOptions())
  const busy = uploading || submit.isPending || videoBusy

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const values = {
      headline: String(form.get('headline') ?? ''),
      categories: form.getAll('categories').map(String),
      proposal: String(form.get('proposal') ?? ''),
      links: {
        website: String(form.get('website') ?? ''),
        linkedin: String(form.get('linkedin') ?? ''),
        youtube: String(form.get('youtube') ?? ''),
      },
    }
    const parsed = applicationInput.safeParse(values)
    const file = form.get('attachment')
    const shown: Partial<Record<Field, string>> = parsed.success ? {} : firstIssueByField(parsed.error.issues, 'links')
    if (file instanceof File && file.size > 0) {
      const isPdf = file.type === 'application/pdf' || file.name.toLowerCase().endsWith('.pdf')
      if (!isPdf) shown.attachment = 'Please choose a PDF (a sample video goes in the field below).'
      else if (file.size > APPLICATION_PDF_MAX_BYTES) shown.attachment = 'A PDF must be at most 10 MB.'
      else if (video) shown.attachment = 'Please attach either a CV or a sample video, not both.'
    }
    show(shown)
    if (!parsed.success || Object.keys(shown).length > 0) return
    try {
      let attachment: { key: string; name: string } | { uploadId: string; name: string } | null = video
        ? { uploadId: video.uploadId, name: video.fileName }
        : null
      if (!attachment && file instanceof File && file.size > 0) {
        setUploading(true)
        try {
          attachment = await uploadAttachment(file)
        } catch (error) {
          show({ attachment: (error as Error).message })
          return
        } finally {
          setUploading(false)
        }
      }
      const result = await submit.mutateAsync({ ...parsed.data, attachment })
      notify('success', result.message)
      await queryClient.invalidateQueries({ queryKey: trpc.creators.pathKey() })
      await navigate({ to: '/teach/application' })
    } catch (error) {
      show({}, errorMessage(error))
    }
  }

  return (
    <form
      ref={formRef}
      {...SCRIPT_ONLY_FORM}
      onSubmit={onSubmit}
      noValidate
      aria-label="Application to teach"
      className={css({ display: 'flex', flexDir: 'column', gap: '5' })}
    >
      <FormAlert>{formError}</FormAlert>
      <TextField
        label="Headline / expertise"
        name="headline"
        required
        maxLength={120}
        placeholder="e.g. Data engineer, 10 years of SQL"
        error={errors.headline}
      />
      <fieldset className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '1' })}>
          Categories you teach (1 to {CATEGORIES_MAX})
        </legend>
        <div className={css({ display: 'grid', gap: '2', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' } })}>
          {categories.map((category) => (
            <CheckboxField key={category.slug} name="categories" value={category.slug} label={category.name} />
          ))}
        </div>
        {errors.categories ? (
          <p role="alert" className={css({ color: 'danger', fontSize: 'sm' })}>
            {errors.categories}
          </p>
        ) : null}
      </fieldset>
      <TextAreaField
        label="Your proposal: what course, for whom"
        name="proposal"
        required
        rows={8}
        maxLength={PROPOSAL_MAX}
        onInput={(event) => setProposalLength(event.currentTarget.value.trim().length)}
        hint={`${proposalLength} of ${PROPOSAL_MIN}–${PROPOSAL_MAX} characters`}
        error={errors.proposal}
      />
      <fieldset className={css({ display: 'flex', flexDir: 'column', gap: '3' })}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '1' })}>Links (optional, https://)</legend>
        <TextField label="Website" name="website" type="url" inputMode="url" error={errors.website} />
        <TextField
          label="LinkedIn"
          name="linkedin"
          type="url"
          inputMode="url"
          placeholder="https://www.linkedin.com/in/…"
          error={errors.linkedin}
        />
        <TextField
          label="YouTube"
          name="youtube"
          type="url"
          inputMode="url"
          placeholder="https://www.youtube.com/@…"
          error={errors.youtube}
        />
      </fieldset>
      <fieldset className={css({ display: 'flex', flexDir: 'column', gap: '3', minW: '0' })}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '1' })}>
          A CV or a sample video (optional, one of them)
        </legend>
        <TextField
          label="Your CV (PDF)"
          name="attachment"
          type="file"
          accept="application/pdf,.pdf"
          hint="A PDF up to 10 MB."
          error={errors.attachment}
        />
        <VideoUpload
          purpose="application"
          label="Or a sample video (MP4, MOV or WebM, up to 500 MB)"
          onUploaded={setVideo}
          onCleared={() => setVideo(null)}
          onBusyChange={setVideoBusy}
          disabled={uploading || submit.isPending}
        />
      </fieldset>
      <button type="submit" className={button({ size: 'lg' })} {...submitWhilePending(busy)}>
        {uploading || submit.isPending ? <Spinner label="Sending" /> : null}
        {videoBusy
          ? 'Waiting for the video upload…'
          : uploading
            ? 'Uploading your file…'
            : submit.isPending
              ? 'Sending…'
              : 'Send application'}
      </button>
    </form>
  )
}
