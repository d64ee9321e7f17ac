// The coupon editor of /admin/coupons and /studio/coupons: code, percent or fixed amount, what it applies to, the
// window, the limits and the minimum. The browser only reads the fields; the server checks everything (a negative or
// > 100 % discount, a fixed amount above a course's price, an end before the start or already past, a hostile code)
// and its message goes under the field.

import { type FormEvent, useState } from 'react'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { toMinorUnits } from '#shared/money.ts'
import {
  COUPON_SCOPE_LABELS,
  type CouponScopeValue,
  PLAN_COUPON_DURATION_LABELS,
  PLAN_COUPON_DURATIONS,
  type PlanCouponDurationValue,
} from '#shared/promotions.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { useFieldErrors } from '../ui/field-errors.tsx'
import { CheckboxField, FormAlert, Options, SelectField, TextField } from '../ui/form.tsx'

const FIELDS = [
  'code',
  'percentOff',
  'amountsOff',
  'minAmounts',
  'appliesTo',
  'courseIds',
  'creatorId',
  'startsAt',
  'endsAt',
  'maxUses',
  'maxUsesPerCustomer',
  'planDuration',
  'planDurationMonths',
] as const
type Field = (typeof FIELDS)[number]

const grid = css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } })

/** A typed amount in minor units; NaN (refused by the server) when it is not a number. */
function minorOf(text: string): number {
  try {
    return toMinorUnits(text)
  } catch {
    return Number.NaN
  }
}
/**
 * What a scope covers, bundles included (decision 0147): a bundle's courses count as courses, each at its share of the
 * bundle's price, so a course code also takes its part off a bundle holding that course.
 */
function scopeHint(scope: CouponScopeValue, studio: boolean): string | undefined {
  const inBundles = 'also when bought in a bundle, on their share of the bundle’s price'
  if (scope === 'courses') return `The courses you choose, ${inBundles}.`
  if (scope === 'creator') return `${studio ? 'Every course of yours' : 'Every course of that creator'}, ${inBundles}.`
  if (scope === 'everything')
    return 'Every course and bundle, and one-off service packages (never a plan or a monthly package).'
  return undefined
}
const intOrNull = (text: string) => (text.trim() === '' ? null : Number(text))
const isoOrNull = (text: string) => (text ? new Date(text).toISOString() : null)

export function CouponEditor({
  scopes,
  courses,
  onCreate,
}: {
  scopes: readonly CouponScopeValue[]
  /** The courses a creator may choose (the studio); staff type course ids. */
  courses?: readonly { id: string; title: string }[]
  onCreate: (input: Record<string, unknown>) => Promise<unknown>
}) {
  const errors = useFieldErrors<Field>()
  const [kind, setKind] = useState<'percent' | 'fixed'>('percent')
  const [scope, setScope] = useState<CouponScopeValue>(scopes[0]!)
  const [duration, setDuration] = useState<PlanCouponDurationValue>('once')
  const [saving, setSaving] = useState(false)

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    const text = (name: string) => String(data.get(name) ?? '').trim()
    const currency = text('currency') || 'USD'
    const courseIds = courses
      ? data.getAll('courseIds').map(String)
      : text('courseIds')
          .split(/[\s,]+/)
          .filter(Boolean)
    const input = {
      code: text('code'),
      kind,
      percentOff: kind === 'percent' ? intOrNull(text('percentOff')) : null,
      amountsOff: kind === 'fixed' ? { [currency]: minorOf(text('amountOff')) } : {},
      minAmounts: text('minAmount') ? { [currency]: minorOf(text('minAmount')) } : {},
      appliesTo: scope,
      courseIds: scope === 'courses' ? courseIds : [],
      creatorId: scope === 'creator' && !courses ? text('creatorId') || null : null,
      startsAt: isoOrNull(text('startsAt')),
      endsAt: isoOrNull(text('endsAt')),
      maxUses: intOrNull(text('maxUses')),
      maxUsesPerCustomer: intOrNull(text('maxUsesPerCustomer')),
      firstPurchaseOnly: data.get('firstPurchaseOnly') === 'on',
      // A plan code's duration, as Stripe's coupons have: the first payment, N months, or every renewal.
      planDuration: scope === 'plans' ? duration : null,
      planDurationMonths: scope === 'plans' && duration === 'repeating' ? intOrNull(text('planDurationMonths')) : null,
    }
    errors.clear()
    setSaving(true)
    try {
      await onCreate(input)
      form.reset()
    } catch (error) {
      errors.fromError(error, FIELDS)
    } finally {
      setSaving(false)
    }
  }

  const field = (name: Field) => ({ error: errors.errors[name] })
  return (
    <form
      ref={errors.formRef}
      {...SCRIPT_ONLY_FORM}
      aria-label="New coupon"
      className={css({ display: 'flex', flexDir: 'column', gap: '4' })}
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <FormAlert>{errors.formError}</FormAlert>
      <div className={grid}>
        <TextField
          name="code"
          label="Code"
          required
          maxLength={40}
          autoComplete="off"
          hint="Letters, digits, - and _; any case"
          {...field('code')}
        />
        <SelectField
          name="kind"
          label="Discount"
          value={kind}
          onChange={(event) => setKind(event.target.value as 'percent' | 'fixed')}
        >
          <option value="percent">Percent off</option>
          <option value="fixed">Fixed amount off</option>
        </SelectField>
        {kind === 'percent' ? (
          <TextField name="percentOff" label="Percent off" inputMode="numeric" required {...field('percentOff')} />
        ) : (
          <TextField
            name="amountOff"
            label="Amount off (e.g. 10.00)"
            inputMode="decimal"
            required
            {...field('amountsOff')}
          />
        )}
        <SelectField name="currency" label="Currency (fixed amount and minimum)" defaultValue="USD">
          <option value="USD">USD</option>
          <option value="GBP">GBP</option>
        </SelectField>
        <SelectField
          name="appliesTo"
          label="Applies to"
          value={scope}
          onChange={(event) => setScope(event.target.value as CouponScopeValue)}
          hint={scopeHint(scope, Boolean(courses))}
          {...field('appliesTo')}
        >
          {/* In the studio (its own courses listed) the one creator is the signed-in one. */}
          <Options
            items={scopes}
            label={(value) => (courses && value === 'creator' ? 'All your courses' : COUPON_SCOPE_LABELS[value])}
          />
        </SelectField>
        {scope === 'courses' && !courses ? (
          <TextField name="courseIds" label="Course ids (comma-separated)" {...field('courseIds')} />
        ) : null}
        {scope === 'plans' ? (
          <SelectField
            name="planDuration"
            label="Discounts the plan for"
            value={duration}
            onChange={(event) => setDuration(event.target.value as PlanCouponDurationValue)}
            {...field('planDuration')}
          >
            <Options items={PLAN_COUPON_DURATIONS} label={(value) => PLAN_COUPON_DURATION_LABELS[value]} />
          </SelectField>
        ) : null}
        {scope === 'plans' && duration === 'repeating' ? (
          <TextField
            name="planDurationMonths"
            label="Number of months (1 to 36)"
            inputMode="numeric"
            required
            {...field('planDurationMonths')}
          />
        ) : null}
        {scope === 'creator' && !courses ? (
          <TextField name="creatorId" label="Creator's user id" {...field('creatorId')} />
        ) : null}
        <TextField name="startsAt" type="datetime-local" label="Starts (optional)" {...field('startsAt')} />
        <TextField
          name="endsAt"
          type="datetime-local"
          label="Ends (optional)"
          hint="A date still to come"
          {...field('endsAt')}
        />
        <TextField name="maxUses" label="Total uses (optional)" inputMode="numeric" {...field('maxUses')} />
        <TextField
          name="maxUsesPerCustomer"
          label="Uses per customer (optional)"
          inputMode="numeric"
          {...field('maxUsesPerCustomer')}
        />
        <TextField
          name="minAmount"
          label="Minimum cart amount (optional)"
          inputMode="decimal"
          {...field('minAmounts')}
        />
      </div>
      {scope === 'courses' && courses ? (
        <fieldset className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
          <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '2' })}>Courses</legend>
          {courses.length === 0 ? <p className={css({ fontSize: 'sm' })}>You have no courses yet.</p> : null}
          {courses.map((course) => (
            <CheckboxField key={course.id} name="courseIds" value={course.id} label={course.title} />
          ))}
          {errors.message('courseIds')}
        </fieldset>
      ) : null}
      <CheckboxField name="firstPurchaseOnly" label="First purchase only" />
      <div>
        <button type="submit" className={button()} {...submitWhilePending(saving)}>
          {saving ? 'Creating…' : 'Create coupon'}
        </button>
      </div>
    </form>
  )
}
