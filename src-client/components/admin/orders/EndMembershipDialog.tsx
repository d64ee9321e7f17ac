// Staff's End membership (decision 0096): the plan an order started ends at the end of its current period (the member
// keeps Premium until then) or now (Premium ends at once; a free trial ends with no charge). No refund is made here.
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { ChoiceCard, inputClass, TextAreaField } from '#client/components/ui/form.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatDate } from '#shared/dates.ts'
import { CANCEL_REASON_MAX, type StaffEndWhen } from '#shared/schemas/membership.ts'
import { css } from '#styled-system/css'

export type StaffPlan = NonNullable<RouterOutputs['admin']['orders']['list']['items'][number]['membership']>

export function EndMembershipDialog({
  plan,
  customer,
  onClose,
  onDone,
}: {
  plan: StaffPlan | null
  customer: string
  onClose: () => void
  onDone: () => Promise<unknown>
}) {
  const trpc = useTRPC()
  const end = useMutation(trpc.admin.orders.endMembership.mutationOptions())
  const [chosen, setChosen] = useState<StaffEndWhen | null>(null)
  const [reason, setReason] = useState('')
  const when = chosen ?? (plan?.canEndAtPeriodEnd ? 'period_end' : 'now')
  const periodEnd = plan?.periodEndsAt ? formatDate(plan.periodEndsAt) : null

  const choices: { value: StaffEndWhen; label: string; detail: string; enabled: boolean }[] = [
    {
      value: 'period_end',
      label: `At the end of the current period${periodEnd ? ` (${periodEnd})` : ''}`,
      detail: plan?.canEndAtPeriodEnd
        ? 'The member keeps Premium until then and is not charged again.'
        : 'Already set to end then.',
      enabled: Boolean(plan?.canEndAtPeriodEnd),
    },
    {
      value: 'now',
      label: 'Now',
      detail: plan?.trial
        ? 'The free trial ends today and is never charged. Premium ends at once.'
        : 'Premium ends at once. No refund is made for the rest of the period.',
      enabled: true,
    },
  ]

  function close() {
    setChosen(null)
    setReason('')
    onClose()
  }

  async function onConfirm() {
    if (!plan) return
    try {
      await end.mutateAsync({ subscriptionId: plan.subscriptionId, when, reason: reason.trim() || undefined })
      notify(
        'success',
        when === 'now'
          ? `${plan.planName} plan ended`
          : `${plan.planName} plan ends ${periodEnd ? `on ${periodEnd}` : 'at the end of its period'}`,
      )
      close()
    } catch (error) {
      notifyError(error, 'Could not end the membership')
    }
    await onDone()
  }

  return (
    <ConfirmDialog
      open={plan !== null}
      title={plan?.trial ? 'End free trial?' : 'End membership?'}
      description={`${plan?.planName ?? ''} plan of ${customer}. This makes no refund: to give money back, use Refund.`}
      cancelLabel="Keep membership"
      confirmLabel={when === 'now' ? 'End now' : 'End at period end'}
      pendingLabel="Ending…"
      pending={end.isPending}
      onConfirm={() => void onConfirm()}
      onCancel={close}
    >
      <fieldset className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
        <legend className={css({ fontWeight: 'semibold', mb: '1' })}>When</legend>
        {choices.map((choice) => (
          <ChoiceCard
            key={choice.value}
            name="end-membership-when"
            value={choice.value}
            checked={when === choice.value}
            disabled={!choice.enabled}
            onChoose={() => setChosen(choice.value)}
            label={choice.label}
            detail={choice.detail}
          />
        ))}
      </fieldset>
      <TextAreaField
        label="Note for the audit log (optional)"
        className={css({ mt: '3' })}
        controlClassName={`${inputClass} ${css({ h: '20', py: '2', mt: '1' })}`}
        maxLength={CANCEL_REASON_MAX}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
    </ConfirmDialog>
  )
}
