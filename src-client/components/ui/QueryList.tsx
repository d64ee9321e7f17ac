// The loading → error → empty → list ladder of a list screen (the admin's orders, courses, reviews, service orders,
// outbox and audit log; the account's courses, orders and services; reported posts): one place for its states, so
// each screen draws only its list. The query's answer is a page of `items`, or the list itself.
import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { EmptyState, ErrorState, LoadingState } from './states.tsx'

/** A page of `items` (with whatever else the screen shows with them), or the whole list. */
type ListData = { items: readonly unknown[] } | readonly unknown[]

export interface QueryListProps<Data extends ListData> {
  /** The list's query. */
  query: UseQueryResult<Data, unknown>
  /** The loading note, e.g. "Loading orders…". */
  loading: string
  /** The error's title, e.g. "Could not load orders" (with the server's message and Try Again). */
  failed: string
  /** The empty state's title, e.g. "No orders found". */
  empty: string
  /** What the empty state offers (e.g. an Add button). */
  emptyAction?: ReactNode
  /** The list itself, drawn once there is at least one item. */
  children: (data: Data) => ReactNode
}

export function QueryList<Data extends ListData>({
  query,
  loading,
  failed,
  empty,
  emptyAction,
  children,
}: QueryListProps<Data>) {
  if (query.isPending) return <LoadingState label={loading} />
  if (query.isError) return <ErrorState title={failed} error={query.error} onRetry={() => void query.refetch()} />
  const items = Array.isArray(query.data) ? query.data : (query.data as { items: readonly unknown[] }).items
  if (items.length === 0) return <EmptyState title={empty}>{emptyAction}</EmptyState>
  return children(query.data)
}
