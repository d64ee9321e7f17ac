// The three payment methods as a labelled radio group; an unconfigured method says why it is unavailable.
import type { PaymentMethodValue } from '#shared/cart.ts'
import { PAYMENT_MESSAGES } from '#shared/cart.ts'
import { css } from '#styled-system/css'

const METHODS: { value: PaymentMethodValue; label: string; description: string }[] = [
  { value: 'card', label: 'Credit / Debit Card', description: 'Pay securely with Stripe checkout.' },
  { value: 'paypal', label: 'PayPal', description: 'Pay with your PayPal account.' },
  { value: 'bank_transfer', label: 'Bank Transfer', description: 'Transfer the total to our bank account.' },
]

const option = css({
  display: 'flex',
  gap: '3',
  alignItems: 'flex-start',
  p: '4',
  borderWidth: '1px',
  borderColor: 'line',
  borderRadius: 'control',
  bg: 'surface',
  cursor: 'pointer',
  '&:has(input:checked)': { borderColor: 'accent', bg: 'brand.50' },
  '&:has(input:disabled)': { opacity: 0.6, cursor: 'not-allowed' },
})

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
        <label key={method.value} className={option}>
          <input
            type="radio"
            name="payment-method"
            value={method.value}
            checked={value === method.value}
            disabled={Boolean(unavailable[method.value])}
            onChange={() => onChange(method.value)}
            className={css({ mt: '1' })}
          />
          <span>
            <span className={css({ display: 'block', fontWeight: 'semibold' })}>{method.label}</span>
            <span className={css({ display: 'block', fontSize: 'sm', color: 'fg.muted' })}>
              {unavailable[method.value] ?? method.description}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  )
}
