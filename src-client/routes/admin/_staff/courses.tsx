// Manage Courses: filter with counts, server-side search and pagination, add/edit dialogs, featured switch, delete.
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { PagedList } from '#client/components/admin/AdminTable.tsx'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { CourseDialog } from '#client/components/admin/courses/CourseDialog.tsx'
import { CoursesTable } from '#client/components/admin/courses/CoursesTable.tsx'
import type { AdminCourse } from '#client/components/admin/courses/form-state.ts'
import {
  atPage,
  optionalEnum,
  optionalFlag,
  optionalPage,
  optionalText,
  type SearchOf,
  searchParams,
} from '#client/components/admin/search.ts'
import { inputClass, pageHead, pageTitle } from '#client/components/admin/styles.ts'
import { useRefreshAdmin, useStaff } from '#client/components/admin/use-staff.ts'
import { button } from '#client/components/ui/button.ts'
import { TextField } from '#client/components/ui/form.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { loadList } from '#client/lib/list-loader.ts'
import type { Trpc } from '#client/lib/trpc.ts'
import { useSearchText } from '#client/lib/use-search-text.ts'
import { COURSE_FILTERS, type CourseFilter } from '#shared/admin.ts'
import { css } from '#styled-system/css'

const searchSchema = searchParams({
  filter: optionalEnum(COURSE_FILTERS),
  search: optionalText,
  page: optionalPage,
  new: optionalFlag,
})

type CoursesSearch = SearchOf<typeof searchSchema>

const coursesQuery = (trpc: Trpc, search: CoursesSearch) =>
  trpc.admin.courses.list.queryOptions({
    filter: search.filter ?? 'all',
    search: search.search ?? '',
    page: search.page ?? 1,
  })

export const Route = createFileRoute('/admin/_staff/courses')({
  head: () => ({ meta: [{ title: 'Manage Courses | SkillForge Admin' }] }),
  validateSearch: searchSchema,
  loaderDeps: ({ search: { filter, search, page } }) => ({ filter, search, page }),
  loader: ({ context: { queryClient, trpc }, deps, cause }) =>
    Promise.all([
      loadList(queryClient, coursesQuery(trpc, deps), cause),
      // The add and edit dialogs choose from these.
      queryClient.prefetchQuery(trpc.admin.categories.list.queryOptions()),
    ]),
  pendingComponent: () => <LoadingState label="Loading courses…" />,
  errorComponent: routeError('Could not load courses'),
  component: ManageCourses,
})

const FILTER_LABELS: Record<CourseFilter, string> = {
  all: 'All',
  published: 'Published',
  draft: 'Draft',
  featured: 'Featured',
}

function ManageCourses() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const refresh = useRefreshAdmin()
  const { can } = useStaff()
  const filter = search.filter ?? 'all'
  // Typing searches on the server after a short pause, from page 1.
  const [searchText, setSearchText] = useSearchText(
    search.search,
    (text) => void navigate({ search: (prev) => ({ ...prev, search: text, page: undefined }) }),
  )
  const [editing, setEditing] = useState<AdminCourse | null>(null)
  const [dialogOpen, setDialogOpen] = useState(Boolean(search.new) && can('editor'))
  const [deleting, setDeleting] = useState<AdminCourse | null>(null)

  const list = useQuery({ ...coursesQuery(trpc, search), placeholderData: keepPreviousData })
  const remove = useMutation(
    trpc.admin.courses.delete.mutationOptions({
      onSuccess: async (result) => {
        setDeleting(null)
        await refresh()
        notify(
          'success',
          'Course deleted successfully!',
          result.archived ? 'It has orders, so it was archived to keep order history whole.' : undefined,
        )
      },
      onError: (error) => notifyError(error),
    }),
  )

  const openAdd = () => {
    setEditing(null)
    setDialogOpen(true)
  }
  const closeDialog = () => {
    setDialogOpen(false)
    if (search.new) void navigate({ search: (prev) => ({ ...prev, new: undefined }) })
  }

  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Manage Courses</h1>
        {can('editor') ? (
          <button type="button" className={button()} onClick={openAdd}>
            Add New Course
          </button>
        ) : null}
      </div>
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'center', mb: '4' })}>
        <div
          role="radiogroup"
          aria-label="Filter courses"
          className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}
        >
          {COURSE_FILTERS.map((key) => (
            <button
              key={key}
              type="button"
              aria-pressed={filter === key}
              className={button({ variant: filter === key ? 'primary' : 'outline', size: 'sm' })}
              onClick={() =>
                void navigate({
                  search: (prev) => ({ ...prev, filter: key === 'all' ? undefined : key, page: undefined }),
                })
              }
            >
              {FILTER_LABELS[key]} ({list.data?.counts[key] ?? '…'})
            </button>
          ))}
        </div>
        <TextField
          label="Search courses"
          labelHidden
          className={css({ ml: 'auto' })}
          type="search"
          controlClassName={inputClass}
          placeholder="Search courses..."
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
        />
      </div>
      <PagedList
        query={list}
        loading="Loading courses…"
        failed="Could not load courses"
        empty="No courses found"
        emptyAction={
          can('editor') ? (
            <button type="button" className={`${button()} ${css({ mt: '4' })}`} onClick={openAdd}>
              Add Course
            </button>
          ) : null
        }
        onPage={(next) => void navigate({ search: atPage(next) })}
      >
        {(data) => (
          <CoursesTable
            courses={data.items}
            canEdit={can('editor')}
            onEdit={(course) => {
              setEditing(course)
              setDialogOpen(true)
            }}
            onDelete={setDeleting}
          />
        )}
      </PagedList>
      <CourseDialog open={dialogOpen} course={editing} onClose={closeDialog} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete course?"
        description={`"${deleting?.title ?? ''}" will be removed from the catalogue. A course someone bought is archived instead, so its orders stay whole.`}
        confirmLabel="Delete"
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
      />
    </>
  )
}
