// A plan and a monthly service are paid in separate checkouts (decision 0136): where a cart would check out both, the
// cart and the checkout say what to do instead of offering a payment the server refuses.
import { mixesPlanAndService, PAYMENT_MESSAGES } from '#shared/cart.ts'
import { css } from '#styled-system/css'
import type { CartLine } from './CartItemRow.tsx'

export function PlanWithServiceNote({ lines }: { lines: CartLine[] }) {
  if (!mixesPlanAndService(lines)) return null
  return (
    <p role="alert" data-testid="plan-with-service" className={css({ color: 'danger', fontSize: 'sm', mt: '3' })}>
      {PAYMENT_MESSAGES.planWithService}
    </p>
  )
}
