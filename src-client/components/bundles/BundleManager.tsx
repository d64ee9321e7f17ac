// The bundle list and editor, shared by the studio (a creator's own bundles and courses) and the admin (every bundle,
// any course). The server checks the plan, the ownership and the price on every save; this form only collects.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { errorMessage } from '#client/lib/errors.ts'
import { countOf } from '#client/lib/format.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { type Currency, formatMoney } from '#shared/money.ts'
import { bundleInput } from '#shared/schemas/bundles.ts'
import { css } from '#styled-system/css'
import { PlanNeeded } from '../studio/PlanNeeded.tsx'
import { button } from '../ui/button.ts'
import { contentCard as panel } from '../ui/card.ts'
import { useSubmitForm } from '../ui/field-errors.tsx'
import { CheckboxField, FormAlert, SelectField, TextAreaField, TextField } from '../ui/form.tsx'
import { EmptyState, ErrorState, LoadingState } from '../ui/states.tsx'
import { notify } from '../ui/toaster.tsx'

type Bundle = RouterOutputs['bundles']['studio']['list'][number]
const BUNDLE_FIELDS = ['title', 'slug', 'description', 'courseIds', 'price', 'currency'] as const
type Scope = 'studio' | 'admin'

export function BundleManager({
  scope,
  intro,
  planNeeded,
}: {
  scope: Scope
  intro?: string
  /** The studio's creator has no plan with bundles: say so (and where to get one) instead of offering a new one. */
  planNeeded?: string
}) {
  const trpc = useTRPC()
  const api = scope === 'studio' ? trpc.bundles.studio : trpc.bundles.admin
  const list = useQuery(api.list.queryOptions())
  const courses = useQuery(api.courses.queryOptions())
  const [editing, setEditing] = useState<Bundle | 'new' | null>(null)
  // The form opens with its Title focused; when it closes, focus goes back to the button that opened it (New Bundle
  // is put back in its place), not to the top of the page.
  const opener = useRef<HTMLElement | null>(null)
  const newButton = useRef<HTMLButtonElement>(null)
  const closed = useRef(false)
  useEffect(() => {
    if (editing !== null || !closed.current) return
    closed.current = false
    ;(opener.current?.isConnected ? opener.current : newButton.current)?.focus()
  }, [editing])
  const open = (value: Bundle | 'new') => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
    setEditing(value)
  }
  const close = () => {
    closed.current = true
    setEditing(null)
  }

  if (list.isPending || courses.isPending) return <LoadingState label="Loading bundles…" />
  if (list.isError)
    return <ErrorState title="Could not load bundles" error={list.error} onRetry={() => list.refetch()} />
  if (courses.isError)
    return <ErrorState title="Could not load courses" error={courses.error} onRetry={() => courses.refetch()} />

  return (
    <div className={css({ display: 'grid', gap: '6' })}>
      <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '4', flexWrap: 'wrap' })}>
        <div>
          <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Bundles</h1>
          {intro ? <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{intro}</p> : null}
        </div>
        {editing === null && !planNeeded ? (
          <button ref={newButton} type="button" className={button()} onClick={() => open('new')}>
            New Bundle
          </button>
        ) : null}
      </div>
      {planNeeded ? <PlanNeeded title={planNeeded} /> : null}
      {editing !== null ? (
        <BundleForm
          key={editing === 'new' ? 'new' : editing.id}
          scope={scope}
          bundle={editing === 'new' ? null : editing}
          courses={courses.data}
          onDone={close}
        />
      ) : null}
      {list.data.length === 0 ? (
        <EmptyState title="No bundles yet">
          <p>Sell two or more courses together at one price.</p>
        </EmptyState>
      ) : (
        <ul className={css({ display: 'grid', gap: '4' })}>
          {list.data.map((bundle) => (
            <li key={bundle.id} data-testid="bundle-row" className={panel}>
              <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '4', flexWrap: 'wrap' })}>
                <div>
                  <h2 className={css({ fontWeight: 'semibold', fontSize: 'lg' })}>{bundle.title}</h2>
                  <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                    {bundle.published ? 'Published' : 'Unpublished'} · {countOf(bundle.courses.length, 'course')} ·{' '}
                    {formatMoney(bundle.price_minor, bundle.currency)}
                    {/* Off sale, the courses' total may leave out a course not sold in this currency: not shown. */}
                    {bundle.offSaleReason === null
                      ? ` instead of ${formatMoney(bundle.listTotalMinor, bundle.currency)} (save ${bundle.savingPercent} %)`
                      : null}
                  </p>
                  {bundle.offSaleReason !== null ? (
                    <p data-testid="bundle-off-sale" className={css({ fontSize: 'sm', color: 'danger' })}>
                      Not on sale: {bundle.offSaleReason}.
                    </p>
                  ) : null}
                  <p className={css({ fontSize: 'sm' })}>{bundle.courses.map((course) => course.title).join(', ')}</p>
                  {bundle.sold ? (
                    <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                      Bought by learners: it can be unpublished, not deleted.
                    </p>
                  ) : null}
                </div>
                <div className={css({ display: 'flex', gap: '2', alignItems: 'start', flexWrap: 'wrap' })}>
                  {bundle.published && bundle.onSale ? (
                    <Link
                      to="/bundles/$slug"
                      params={{ slug: bundle.slug }}
                      className={button({ variant: 'ghost', size: 'sm' })}
                    >
                      View
                    </Link>
                  ) : null}
                  <button
                    type="button"
                    className={button({ variant: 'outline', size: 'sm' })}
                    aria-label={`Edit ${bundle.title}`}
                    onClick={() => open(bundle)}
                  >
                    Edit
                  </button>
                  {bundle.sold ? null : <DeleteBundle scope={scope} bundle={bundle} />}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

function DeleteBundle({ scope, bundle }: { scope: Scope; bundle: Bundle }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const api = scope === 'studio' ? trpc.bundles.studio : trpc.bundles.admin
  const remove = useMutation(api.remove.mutationOptions())
  return (
    <button
      type="button"
      className={button({ variant: 'ghost', size: 'sm' })}
      aria-label={`Delete ${bundle.title}`}
      aria-disabled={remove.isPending}
      onClick={async () => {
        if (remove.isPending || !window.confirm(`Delete the bundle “${bundle.title}”?`)) return
        try {
          await remove.mutateAsync({ bundleId: bundle.id })
          await queryClient.invalidateQueries({ queryKey: trpc.bundles.pathKey() })
          notify('success', 'Bundle deleted')
        } catch (error) {
          notify('error', errorMessage(error, 'Bundle not deleted'))
        }
      }}
    >
      Delete
    </button>
  )
}

const toMajor = (minor: number) => (minor / 100).toFixed(2)

function BundleForm({
  scope,
  bundle,
  courses,
  onDone,
}: {
  scope: Scope
  bundle: Bundle | null
  courses: RouterOutputs['bundles']['studio']['courses']
  onDone: () => void
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const api = scope === 'studio' ? trpc.bundles.studio : trpc.bundles.admin
  const create = useMutation(api.create.mutationOptions())
  const update = useMutation(api.update.mutationOptions())
  const [chosen, setChosen] = useState<string[]>(bundle?.courses.map((course) => course.id) ?? [])
  const currency = (courses.find((course) => chosen.includes(course.id))?.currency ?? 'USD') as Currency
  // The price's currency follows the chosen courses' until the creator picks one (a course may sell in both).
  const [pickedCurrency, setPickedCurrency] = useState<Currency | null>(bundle?.currency ?? null)
  const listTotal = courses.filter((course) => chosen.includes(course.id)).reduce((sum, c) => sum + c.priceMinor, 0)
  // The shared schema's messages, and the server's refusals about a field (price, courses, address), go under it.
  const form = useSubmitForm({
    fields: BUNDLE_FIELDS,
    schema: bundleInput,
    read: (data) => ({
      title: String(data.get('title') ?? ''),
      slug: String(data.get('slug') ?? ''),
      description: String(data.get('description') ?? ''),
      price: String(data.get('price') ?? ''),
      currency: String(data.get('currency') ?? currency) === 'GBP' ? 'GBP' : 'USD',
      published: data.get('published') === 'on',
      courseIds: chosen,
    }),
    send: async (input) => {
      if (bundle) await update.mutateAsync({ ...input, bundleId: bundle.id })
      else await create.mutateAsync(input)
      await queryClient.invalidateQueries({ queryKey: trpc.bundles.pathKey() })
      notify('success', bundle ? 'Bundle saved' : 'Bundle created')
      onDone()
    },
  })
  const saving = create.isPending || update.isPending

  return (
    <form
      {...SCRIPT_ONLY_FORM}
      {...form.formProps}
      className={`${panel} ${css({ display: 'grid', gap: '4' })}`}
      aria-label="Bundle"
    >
      <h2 className={css({ fontWeight: 'semibold', fontSize: 'lg' })}>
        {bundle ? `Edit ${bundle.title}` : 'New bundle'}
      </h2>
      <FormAlert>{form.formError}</FormAlert>
      <TextField
        label="Title"
        name="title"
        required
        maxLength={200}
        error={form.errors.title}
        defaultValue={bundle?.title ?? ''}
        // New Bundle or Edit was pressed to fill this very form.
        autoFocus
      />
      <TextField
        label="Address"
        name="slug"
        required
        maxLength={80}
        pattern="[a-z0-9]+(-[a-z0-9]+)*"
        hint="Lowercase letters, digits and dashes: /bundles/your-address"
        error={form.errors.slug}
        defaultValue={bundle?.slug ?? ''}
      />
      <TextAreaField
        label="Description"
        name="description"
        maxLength={4000}
        error={form.errors.description}
        defaultValue={bundle?.description ?? ''}
      />
      <fieldset className={css({ display: 'grid', gap: '2' })}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '2' })}>Courses (at least 2)</legend>
        {courses.length === 0 ? (
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No published courses to bundle yet.</p>
        ) : (
          courses.map((course) => (
            <CheckboxField
              key={course.id}
              label={`${course.title} (${formatMoney(course.priceMinor, course.currency)})`}
              checked={chosen.includes(course.id)}
              // The courses' one message (below the list) names every box, and the first takes the focus.
              {...form.control('courseIds')}
              onChange={(event) =>
                setChosen((ids) => (event.target.checked ? [...ids, course.id] : ids.filter((id) => id !== course.id)))
              }
            />
          ))
        )}
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          Bought one by one: {formatMoney(listTotal, currency)}
        </p>
        {form.message('courseIds')}
      </fieldset>
      <div className={css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' } })}>
        <TextField
          label="Bundle price"
          name="price"
          required
          inputMode="decimal"
          placeholder="49.99"
          error={form.errors.price}
          defaultValue={bundle ? toMajor(bundle.price_minor) : ''}
        />
        <SelectField
          label="Currency"
          name="currency"
          value={pickedCurrency ?? currency}
          error={form.errors.currency}
          onChange={(event) => setPickedCurrency(event.target.value === 'GBP' ? 'GBP' : 'USD')}
        >
          <option value="USD">USD</option>
          <option value="GBP">GBP</option>
        </SelectField>
      </div>
      <CheckboxField label="Published (on sale)" name="published" defaultChecked={bundle?.published ?? false} />
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <button type="submit" className={button()} aria-disabled={saving}>
          {saving ? 'Saving…' : bundle ? 'Save Bundle' : 'Create Bundle'}
        </button>
        <button type="button" className={button({ variant: 'outline' })} onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  )
}
