// The audit log: who changed what, before and after, when, and who looked a customer up. Admins and the owner only
// (the server checks). **Account e-mail** narrows it to the entries about one account or made by it.

import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { AdminTable, PagedList } from '#client/components/admin/AdminTable.tsx'
import { FindForm } from '#client/components/admin/FindForm.tsx'
import { optionalPage, searchParams } from '#client/components/admin/search.ts'
import { pageHead, pageTitle } from '#client/components/admin/styles.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { loadList } from '#client/lib/list-loader.ts'
import type { Trpc } from '#client/lib/trpc.ts'
import { auditActionLabel } from '#shared/audit-actions.ts'
import { formatDate } from '#shared/dates.ts'
import { searchedAddress } from '#shared/schemas/admin.ts'
import { css } from '#styled-system/css'

const auditQuery = (trpc: Trpc, page = 1, account?: string) => trpc.admin.audit.list.queryOptions({ page, account })

const routeSearch = searchParams({ page: optionalPage })

export const Route = createFileRoute('/admin/_staff/audit')({
  head: () => ({ meta: [{ title: 'Audit log | SkillForge Admin' }] }),
  validateSearch: routeSearch,
  loaderDeps: ({ search }) => ({ page: search.page }),
  loader: ({ context, deps, cause }) => loadList(context.queryClient, auditQuery(context.trpc, deps.page), cause),
  pendingComponent: () => <LoadingState label="Loading the audit log…" />,
  errorComponent: routeError('Could not load the audit log'),
  component: AuditLog,
})

// Wrapped in full, never a scroll box: a scrolling cell would need a keyboard stop of its own (axe
// scrollable-region-focusable), one per cell; the table's ScrollRegion scrolls sideways.
const code = css({
  fontFamily: 'mono',
  fontSize: 'xs',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  maxW: '72',
  display: 'block',
})
const show = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value, null, 1))

function AuditLog() {
  const { trpc } = Route.useRouteContext()
  const { page } = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const [account, setAccount] = useState<string>()
  const log = useQuery({ ...auditQuery(trpc, page, account), placeholderData: keepPreviousData })
  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Audit log</h1>
      </div>
      <FindForm
        landmark="Find one account’s entries"
        label="Account e-mail"
        name="account"
        type="email"
        placeholder="name@example.com"
        searching={account !== undefined}
        rule={searchedAddress}
        onFind={(next) => {
          setAccount(next)
          void navigate({ search: { page: 1 } })
        }}
      />
      <PagedList
        query={log}
        loading="Loading the audit log…"
        failed="Could not load the audit log"
        empty={
          !account
            ? 'Nothing recorded yet'
            : log.data?.unknownAccount
              ? `No account with the address ${account}`
              : `No entries about or by ${account}`
        }
        onPage={(next) => void navigate({ search: { page: next } })}
      >
        {(data) => (
          <AdminTable scrollLabel="Audit log" columns={['When', 'Who', 'What', 'Before', 'After']}>
            {data.items.map((entry) => (
              <tr key={entry.id}>
                <td>{formatDate(entry.createdAt, 'mediumTime')}</td>
                <td>{entry.actorEmail}</td>
                <td>
                  <span className={css({ fontWeight: 'semibold' })}>{auditActionLabel(entry.action)}</span>
                  <br />
                  <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>
                    {entry.action} · {entry.entityType} {entry.entityId}
                  </span>
                </td>
                <td>
                  <code className={code}>{show(entry.before)}</code>
                </td>
                <td>
                  <code className={code}>{show(entry.after)}</code>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </PagedList>
    </>
  )
}
