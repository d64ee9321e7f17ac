// Manage Categories: Name, Description, Courses (real count), Actions.
import { useMutation, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import { AdminTable, RowAction } from '#client/components/admin/AdminTable.tsx'
import { CategoryDialog, type CategoryDraft } from '#client/components/admin/CategoryDialog.tsx'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { pageHead, pageTitle, panel } from '#client/components/admin/styles.ts'
import { useRefreshAdmin, useStaff } from '#client/components/admin/use-staff.ts'
import { button } from '#client/components/ui/button.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { EmptyState, LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { errorMessage } from '#client/lib/errors.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/categories')({
  head: () => ({ meta: [{ title: 'Manage Categories | SkillForge Admin' }] }),
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.admin.categories.list.queryOptions()),
  pendingComponent: () => <LoadingState label="Loading categories…" />,
  errorComponent: routeError('Could not load categories'),
  component: ManageCategories,
})

function ManageCategories() {
  const { trpc } = Route.useRouteContext()
  const refresh = useRefreshAdmin()
  const { can } = useStaff()
  const { data: categories } = useSuspenseQuery(trpc.admin.categories.list.queryOptions())
  const [dialog, setDialog] = useState<{ open: boolean; category: CategoryDraft | null }>({
    open: false,
    category: null,
  })
  const [deleting, setDeleting] = useState<CategoryDraft | null>(null)
  const remove = useMutation(
    trpc.admin.categories.delete.mutationOptions({
      onSuccess: async () => {
        await refresh()
        notify('success', 'Category deleted successfully!')
        setDeleting(null)
      },
      onError: (error) => {
        setDeleting(null)
        notifyError(error, 'Category not deleted', errorMessage(error))
      },
    }),
  )

  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Manage Categories</h1>
        {can('editor') ? (
          <button type="button" className={button()} onClick={() => setDialog({ open: true, category: null })}>
            Add New Category
          </button>
        ) : null}
      </div>
      <div className={panel}>
        {categories.length === 0 ? (
          <EmptyState title="No categories yet" />
        ) : (
          <AdminTable scrollLabel="Categories" columns={['Name', 'Description', 'Courses', 'Actions']}>
            {categories.map((category) => (
              <tr key={category.id} data-testid={`category-row-${category.slug}`}>
                <td className={css({ fontWeight: 'semibold' })}>{category.name}</td>
                <td className={css({ color: 'fg.muted' })}>{category.description}</td>
                <td>{category.coursesCount}</td>
                <td>
                  {can('editor') ? (
                    <div className={css({ display: 'flex', gap: '1' })}>
                      <RowAction
                        action="Edit"
                        row={category.name}
                        onClick={() => setDialog({ open: true, category })}
                      />
                      <RowAction action="Delete" row={category.name} onClick={() => setDeleting(category)} />
                    </div>
                  ) : (
                    <span className={css({ color: 'fg.muted' })}>View only</span>
                  )}
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </div>
      <CategoryDialog
        open={dialog.open}
        category={dialog.category}
        onClose={() => setDialog({ open: false, category: null })}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete category?"
        description={`"${deleting?.name ?? ''}" will be deleted. A category that courses use cannot be deleted.`}
        confirmLabel="Delete"
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
      />
    </>
  )
}
