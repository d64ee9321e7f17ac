// What the customer page's parts share (routes/admin/_staff/customers.tsx): the customer as the look-up answers it,
// and the way a part shows what its action changed.
import { useQueryClient } from '@tanstack/react-query'
import { useTRPC } from '#client/components/admin/use-staff.ts'
import type { RouterOutputs } from '#client/lib/types.ts'

export type Customer = NonNullable<RouterOutputs['admin']['customers']['find']>

/**
 * Puts an action's answer into the looked-up customer (`change` gets the customer as it is, returns the new one): the
 * part shows it without reading the customer again, since each read is an audited look-up.
 */
export function useShowCustomerChange(accountId: string) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  return (change: (customer: Customer) => Customer) =>
    queryClient.setQueriesData<Customer | null>({ queryKey: trpc.admin.customers.find.queryKey() }, (old) =>
      old?.account.id === accountId ? change(old) : old,
    )
}
