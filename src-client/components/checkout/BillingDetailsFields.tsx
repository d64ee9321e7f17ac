// Invoice details at checkout, all optional: name and e-mail default to the account's; a business adds its
// company name, address and VAT number. They are printed on the invoice of the paid order.
import { css } from '#styled-system/css'
import { TextField } from '../ui/form.tsx'

export interface BillingDetailsValue {
  name: string
  email: string
  company: string
  address: string
  vatNumber: string
}

export const EMPTY_BILLING: BillingDetailsValue = { name: '', email: '', company: '', address: '', vatNumber: '' }

export function BillingDetailsFields({
  value,
  onChange,
}: {
  value: BillingDetailsValue
  onChange: (value: BillingDetailsValue) => void
}) {
  const field = (key: keyof BillingDetailsValue) => ({
    value: value[key],
    onChange: (event: { target: { value: string } }) => onChange({ ...value, [key]: event.target.value }),
  })
  return (
    <details className={css({ borderWidth: '1px', borderColor: 'line', borderRadius: 'card', p: '4', bg: 'surface' })}>
      <summary className={css({ cursor: 'pointer', fontWeight: 'semibold' })}>Invoice details (optional)</summary>
      <div className={css({ display: 'grid', gap: '3', mt: '3', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } })}>
        <TextField label="Name on invoice" autoComplete="name" maxLength={120} {...field('name')} />
        <TextField label="Invoice email" type="email" autoComplete="email" maxLength={254} {...field('email')} />
        <TextField label="Company name" autoComplete="organization" maxLength={160} {...field('company')} />
        <TextField label="VAT number" maxLength={40} {...field('vatNumber')} />
        <TextField
          label="Billing address"
          autoComplete="street-address"
          maxLength={500}
          className={css({ gridColumn: { md: 'span 2' } })}
          {...field('address')}
        />
      </div>
    </details>
  )
}
