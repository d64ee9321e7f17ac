// /account → Gifts you bought: where each stands, and a corrected address for one not claimed yet.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useRef, useState } from 'react'
import { errorMessage } from '#client/lib/errors.ts'
import { useFocusWhenLost } from '#client/lib/focus.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { SectionCard } from '../account/SectionCard.tsx'
import { button } from '../ui/button.ts'
import { FormAlert, TextField } from '../ui/form.tsx'
import { ErrorState, LoadingState } from '../ui/states.tsx'
import { notify } from '../ui/toaster.tsx'

type Gift = RouterOutputs['gifts']['mine'][number]

const STATE_LABEL: Record<Gift['state'], string> = {
  awaiting_payment: 'Awaiting payment',
  scheduled: 'Scheduled',
  sent: 'Sent, not claimed yet',
  // Decision 0146: the gift is still the buyer's; the row says what to do with it.
  recipient_owns: 'Not used: they already have this course',
  claimed: 'Claimed',
  refunded: 'Refunded',
  cancelled: 'Not paid',
}

export function MyGifts() {
  const trpc = useTRPC()
  const gifts = useQuery(trpc.gifts.mine.queryOptions())
  return (
    <div id="my-gifts">
      <SectionCard
        title="Gifts you bought"
        description="Courses and memberships you gave to someone else, and whether they claimed them."
      >
        {gifts.isPending ? (
          <LoadingState label="Loading your gifts…" />
        ) : gifts.isError ? (
          <ErrorState title="Your gifts could not be loaded" onRetry={() => void gifts.refetch()} />
        ) : gifts.data.length === 0 ? (
          <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
            No gifts yet. Any course page has a “Buy as a gift” link.
          </p>
        ) : (
          <ul className={css({ display: 'grid', gap: '4' })}>
            {gifts.data.map((gift) => (
              <GiftRow key={gift.id} gift={gift} />
            ))}
          </ul>
        )}
      </SectionCard>
    </div>
  )
}

function GiftRow({ gift }: { gift: Gift }) {
  const [editing, setEditing] = useState(false)
  const resendable = gift.state === 'sent' || gift.state === 'scheduled' || gift.state === 'recipient_owns'
  // The form takes the place of the button that opened it (its field focused) and goes when done: the focus, gone
  // with it, returns to that button after Cancel, or goes to the gift's row once resent (its address is what changed).
  const row = useRef<HTMLLIElement>(null)
  const opener = useRef<HTMLButtonElement>(null)
  const resent = useRef(false)
  useFocusWhenLost(editing ? 'editing' : 'closed', () => (resent.current ? row.current : opener.current))
  return (
    <li
      ref={row}
      className={css({
        borderWidth: '1px',
        borderColor: 'line',
        borderRadius: 'control',
        p: '4',
        display: 'grid',
        gap: '2',
      })}
      data-testid="gift-row"
    >
      <p className={css({ fontWeight: 'semibold' })}>{gift.title}</p>
      <p className={css({ fontSize: 'sm' })}>
        To {gift.recipientEmail} · {formatMoney(gift.totalMinor, gift.currency)} · Order {gift.reference}
      </p>
      <p className={css({ fontSize: 'sm' })}>
        Status: <strong>{STATE_LABEL[gift.state]}</strong>
      </p>
      {gift.state === 'recipient_owns' ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          Resend it to someone else, or ask for a refund of the order under Orders.
        </p>
      ) : null}
      {resendable && !editing ? (
        <button
          ref={opener}
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          onClick={() => setEditing(true)}
        >
          Resend to another address
        </button>
      ) : null}
      {resendable && editing ? (
        <ResendForm
          gift={gift}
          onDone={(done) => {
            resent.current = done === 'resent'
            setEditing(false)
          }}
        />
      ) : null}
    </li>
  )
}

function ResendForm({ gift, onDone }: { gift: Gift; onDone: (done: 'resent' | 'cancel') => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const resend = useMutation(trpc.gifts.resend.mutationOptions())
  const [error, setError] = useState<string | null>(null)

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const recipientEmail = String(new FormData(event.currentTarget).get('recipientEmail') ?? '')
    try {
      const result = await resend.mutateAsync({ giftId: gift.id, recipientEmail })
      notify('success', result.sent ? 'Gift resent; the earlier link no longer works.' : 'Address updated.')
      await queryClient.invalidateQueries({ queryKey: trpc.gifts.mine.queryKey() })
      onDone('resent')
    } catch (caught) {
      setError(errorMessage(caught))
    }
  }

  return (
    <form {...SCRIPT_ONLY_FORM} onSubmit={onSubmit} className={css({ display: 'grid', gap: '3' })} noValidate>
      <FormAlert>{error}</FormAlert>
      <TextField
        label="Corrected email"
        name="recipientEmail"
        type="email"
        required
        defaultValue={gift.recipientEmail}
        // The form took the place of the pressed button: its one field takes the focus.
        autoFocus
      />
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <button type="submit" className={button({ size: 'sm' })} {...submitWhilePending(resend.isPending)}>
          {resend.isPending ? 'Sending…' : 'Resend gift'}
        </button>
        <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => onDone('cancel')}>
          Cancel
        </button>
      </div>
    </form>
  )
}
