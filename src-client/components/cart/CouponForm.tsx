// 'Apply code' on the cart: one code per cart. The server says whether it applies and, if not, why (unknown, not
// started, expired, used up, already used by you, nothing in the cart qualifies, below the minimum it names); the
// message sits under the field and is announced. Applying replaces the form with the applied code, and removing it
// brings the form back: focus follows to Remove code, then to the code field (it never falls to the page).

import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useRef, useState } from 'react'
import { errorMessage } from '#client/lib/errors.ts'
import { useFocusWhenLost } from '#client/lib/focus.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { COUPON_MESSAGES } from '#shared/promotions.ts'
import { css, cx } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { borderedCard } from '../ui/card.ts'
import { TextField } from '../ui/form.tsx'
import { notify } from '../ui/toaster.tsx'
import { useRefreshPurchases } from './hooks.ts'

/** The cart's code as the server words it: whether it applies, why not, and a note when fewer orders may use it than
 * the cart has currencies it discounts. */
export type AppliedCoupon = NonNullable<NonNullable<RouterOutputs['cart']['list']>['coupon']>

const box = cx(borderedCard, css({ p: '5' }))

export function CouponForm({ applied }: { applied: AppliedCoupon | null }) {
  const trpc = useTRPC()
  const refresh = useRefreshPurchases()
  const apply = useMutation(trpc.cart.applyCoupon.mutationOptions())
  const remove = useMutation(trpc.cart.removeCoupon.mutationOptions())
  const [error, setError] = useState<string | undefined>()
  const removeButton = useRef<HTMLButtonElement>(null)
  const form = useRef<HTMLFormElement>(null)
  useFocusWhenLost(applied ? `applied:${applied.code}` : 'none', () =>
    applied ? removeButton.current : form.current?.querySelector<HTMLInputElement>('input[name="code"]'),
  )

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const code = String(new FormData(event.currentTarget).get('code') ?? '').trim()
    if (!code) {
      setError('Enter a code')
      return
    }
    try {
      await apply.mutateAsync({ code })
      setError(undefined)
      notify('success', COUPON_MESSAGES.applied)
    } catch (failure) {
      setError(errorMessage(failure, 'The code could not be applied'))
    }
    await refresh()
  }

  async function removeCode() {
    await remove.mutateAsync()
    notify('success', COUPON_MESSAGES.removed)
    await refresh()
  }

  if (applied) {
    return (
      <section aria-label="Coupon code" className={box} data-testid="coupon-applied">
        <p className={css({ fontSize: 'sm' })}>
          Code <strong>{applied.code}</strong> {applied.applies ? 'applied' : 'does not apply'}
        </p>
        {applied.refusal ? (
          <p role="alert" className={css({ color: 'danger', fontSize: 'sm', mt: '1' })}>
            {applied.refusal}
          </p>
        ) : null}
        {applied.note ? (
          <p data-testid="coupon-note" className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>
            {applied.note}
          </p>
        ) : null}
        <button
          ref={removeButton}
          type="button"
          className={`${button({ variant: 'outline', size: 'sm' })} ${css({ mt: '3' })}`}
          {...whilePending(remove.isPending, 'onClick', () => void removeCode())}
        >
          Remove code
        </button>
      </section>
    )
  }
  return (
    <form
      ref={form}
      {...SCRIPT_ONLY_FORM}
      aria-label="Apply a coupon"
      className={box}
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <TextField
        name="code"
        label="Coupon code"
        autoComplete="off"
        maxLength={40}
        error={error}
        onChange={() => setError(undefined)}
      />
      <p aria-live="polite" className={css({ srOnly: true })}>
        {error ?? ''}
      </p>
      <button
        type="submit"
        className={`${button({ variant: 'outline', size: 'sm' })} ${css({ mt: '3' })}`}
        {...submitWhilePending(apply.isPending)}
      >
        Apply code
      </button>
    </form>
  )
}
