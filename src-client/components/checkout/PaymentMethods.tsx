// The three payment methods as a labelled radio group; an unconfigured method says why it is unavailable.
import type { PaymentMethodValue } from '#shared/cart.ts'
import { PAYMENT_MESSAGES } from '#shared/cart.ts'
import { css } from '#styled-system/css'
import { ChoiceCard } from '../ui/form.tsx'

const METHODS: { value: PaymentMethodValue; label: string; description: string }[] = [
  { value: 'card', label: 'Credit / Debit Card', description: 'Pay securely with Stripe checkout.' },
  { value: 'paypal', label: 'PayPal', description: 'Pay with your PayPal account.' },
  { value: 'bank_transfer', label: 'Bank Transfer', description: 'Transfer the total to our bank account.' },
]

export function PaymentMethods({
  value,
  onChange,
  available,
}: {
  value: PaymentMethodValue | null
  onChange: (method: PaymentMethodValue) => void
  available: { card: boolean; paypal: boolean }
}) {
  const unavailable: Partial<Record<PaymentMethodValue, string>> = {
    ...(available.card ? {} : { card: PAYMENT_MESSAGES.cardNotConfigured }),
    ...(available.paypal ? {} : { paypal: PAYMENT_MESSAGES.paypalNotConfigured }),
  }
  return (
    <fieldset className={css({ display: 'flex', flexDir: 'column', gap: '3' })}>
      <legend className={css({ fontWeight: 'bold', mb: '3' })}>Payment Method</legend>
      {METHODS.map((method) => (
        <ChoiceCard
          key={method.value}
          name="payment-method"
          value={method.value}
          checked={value === method.value}
          disabled={Boolean(unavailable[method.value])}
          onChoose={() => onChange(method.value)}
          label={method.label}
          detail={unavailable[method.value] ?? method.description}
        />
      ))}
    </fieldset>
  )
}
