// Change plan: choose a plan and cycle, see what Stripe will charge now (prorated), then confirm that amount. The
// confirmation names the preview; the server charges at the date it kept for it (decision 0135).
import { useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { BILLING_CYCLES, type BillingCycleValue } from '#shared/cart.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { AdminDialog as Dialog } from '../admin/AdminDialog.tsx'
import { button } from '../ui/button.ts'
import { Options, SelectField } from '../ui/form.tsx'
import { notify, notifyError } from '../ui/toaster.tsx'
import type { PlanChoice } from './MembershipPanel.tsx'

export function ChangePlanDialog({
  open,
  current,
  initial,
  onClose,
  onDone,
}: {
  open: boolean
  current: PlanChoice
  initial: PlanChoice | null
  onClose: () => void
  onDone: () => Promise<unknown>
}) {
  const trpc = useTRPC()
  const plans = useQuery(trpc.plans.list.queryOptions())
  const preview = useMutation(trpc.membership.previewChange.mutationOptions())
  const change = useMutation(trpc.membership.changePlan.mutationOptions())
  const [choice, setChoice] = useState<PlanChoice>(initial ?? current)
  const same = choice.planId === current.planId && choice.billingCycle === current.billingCycle
  // A new choice needs a new preview.
  const choose = (next: PlanChoice) => {
    setChoice(next)
    preview.reset()
  }

  async function onPreview() {
    try {
      await preview.mutateAsync(choice)
    } catch (error) {
      notifyError(error, 'Could not work out the price')
    }
  }

  async function onConfirm() {
    if (!preview.data) return
    try {
      await change.mutateAsync({ ...choice, prorationDate: preview.data.prorationDate })
      notify('success', `Your plan is now ${preview.data.planName} (${choice.billingCycle})`)
      onClose()
    } catch (error) {
      notifyError(error, 'Could not change your plan')
      // The server uses a shown price once and for a few minutes: whatever failed, the member sees the price again.
      preview.reset()
    }
    await onDone()
  }

  const quote = preview.data
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? undefined : onClose())}
      title="Change plan"
      description="Upgrades and downgrades take effect now; you pay (or are credited) the prorated difference."
      footer={
        <>
          <button type="button" className={button({ variant: 'outline' })} onClick={onClose}>
            Close
          </button>
          {quote ? (
            <button
              type="button"
              className={button()}
              {...whilePending(change.isPending, 'onClick', () => void onConfirm())}
            >
              {change.isPending ? 'Changing…' : `Confirm and pay ${formatMoney(quote.amountDueMinor, quote.currency)}`}
            </button>
          ) : (
            <button
              type="button"
              className={button()}
              {...whilePending(same || preview.isPending, 'onClick', () => void onPreview())}
            >
              {preview.isPending ? 'Working out the price…' : 'Show price'}
            </button>
          )}
        </>
      }
    >
      <div className={css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' } })}>
        <SelectField
          label="Plan"
          value={choice.planId}
          onChange={(event) => choose({ ...choice, planId: event.target.value })}
        >
          <Options items={plans.data?.plans} value={(plan) => plan.id} label={(plan) => plan.name} />
        </SelectField>
        <SelectField
          label="Billing"
          value={choice.billingCycle}
          onChange={(event) => choose({ ...choice, billingCycle: event.target.value as BillingCycleValue })}
        >
          <Options items={BILLING_CYCLES} label={(cycle) => (cycle === 'annual' ? 'Annual' : 'Monthly')} />
        </SelectField>
      </div>
      {same ? <p className={css({ mt: '3', color: 'fg.muted' })}>This is your current plan.</p> : null}
      {quote ? (
        <p data-testid="proration-amount" className={css({ mt: '4', fontWeight: 'semibold' })}>
          You pay {formatMoney(quote.amountDueMinor, quote.currency)} now (prorated), then{' '}
          {formatMoney(quote.newPriceMinor, quote.currency)} per {quote.billingCycle === 'annual' ? 'year' : 'month'}.
        </p>
      ) : null}
    </Dialog>
  )
}
