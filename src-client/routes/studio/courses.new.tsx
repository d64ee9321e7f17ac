// A new course: a title and a category make a draft; the details and the curriculum come next.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { DialogForm } from '#client/components/admin/DialogForm.tsx'
import { button } from '#client/components/ui/button.ts'
import { useFieldErrors } from '#client/components/ui/field-errors.tsx'
import { Options, SelectField, TextField } from '#client/components/ui/form.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { STUDIO_LIMITS } from '#shared/studio.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/studio/courses/new')({
  loader: ({ context: { queryClient, trpc } }) => queryClient.ensureQueryData(trpc.studio.categories.queryOptions()),
  head: () => ({ meta: [{ title: 'New course | Studio | SkillForge' }] }),
  pendingComponent: () => <LoadingState label="Loading the new course form…" />,
  errorComponent: routeError('Could not open the new course form'),
  component: NewCourse,
})

const FIELDS = ['title', 'categoryId'] as const

function NewCourse() {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const categories = useQuery(trpc.studio.categories.queryOptions())
  const fields = useFieldErrors<(typeof FIELDS)[number]>()
  const create = useMutation(
    trpc.studio.createCourse.mutationOptions({
      onSuccess: async ({ id }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.studio.pathKey() })
        notify('success', 'Course created', 'Now fill in its details.')
        await navigate({ to: '/studio/courses/$courseId', params: { courseId: id } })
      },
      onError: (error) => fields.fromError(error, FIELDS),
    }),
  )
  return (
    <main className={css({ display: 'flex', flexDir: 'column', gap: '6', maxW: '40rem' })}>
      <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold' })}>New course</h1>
      <DialogForm
        fields={fields}
        onSubmit={(event) => {
          const data = new FormData(event.currentTarget)
          create.mutate({ title: String(data.get('title') ?? ''), categoryId: String(data.get('categoryId') ?? '') })
        }}
      >
        <TextField
          label="Title"
          name="title"
          required
          maxLength={STUDIO_LIMITS.title}
          error={fields.errors.title}
          hint={`Up to ${STUDIO_LIMITS.title} characters; you can change it later.`}
        />
        <SelectField label="Category" name="categoryId" required error={fields.errors.categoryId}>
          <Options items={categories.data} value={(category) => category.id} label={(category) => category.name} />
        </SelectField>
        <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
          <button type="submit" className={button()} {...submitWhilePending(create.isPending)}>
            {create.isPending ? 'Creating…' : 'Create course'}
          </button>
          <Link to="/studio" className={button({ variant: 'outline' })}>
            Cancel
          </Link>
        </div>
      </DialogForm>
    </main>
  )
}
