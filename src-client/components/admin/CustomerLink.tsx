// A customer's address on a staff page (an order, a support message, a service order) as a link to their page on
// /admin/customers (decision 0155). The address travels in the history entry's state, never in the URL: the address
// bar, the history list and every access log stay without it.
import { Link } from '@tanstack/react-router'
import { rowLink } from '#client/components/admin/styles.ts'

declare module '@tanstack/history' {
  interface HistoryState {
    /** /admin/customers looks this address up when it opens. */
    customer?: string
  }
}

export function CustomerLink({ email }: { email: string }) {
  return (
    <Link to="/admin/customers" state={{ customer: email }} className={rowLink} title="Look up this customer">
      {email}
    </Link>
  )
}
