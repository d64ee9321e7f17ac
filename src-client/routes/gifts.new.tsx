import { useMutation, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link, notFound, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useRef, useState } from 'react'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { PAYMENT_MESSAGES } from '#shared/cart.ts'
import { soldIn } from '#shared/course-prices.ts'
import { type Currency, formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { BankTransferDialog } from '../components/checkout/BankTransferDialog.tsx'
import { PaymentMethods } from '../components/checkout/PaymentMethods.tsx'
import { usePaymentChoice } from '../components/checkout/use-payment-choice.ts'
import { PageIntro } from '../components/layout/PageIntro.tsx'
import { button } from '../components/ui/button.ts'
import { serverFieldErrors } from '../components/ui/field-errors.tsx'
import { FormAlert, Options, SelectField, TextAreaField, TextField } from '../components/ui/form.tsx'
import { Container } from '../components/ui/layout.tsx'
import { routeError } from '../components/ui/RouteError.tsx'
import { LoadingState } from '../components/ui/states.tsx'
import { notify } from '../components/ui/toaster.tsx'
import { errorMessage } from '../lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '../lib/native-form.ts'
import { searchParams, text } from '../lib/search-params.ts'
import { requireUser } from '../lib/session.ts'
import { useTRPC } from '../lib/use-trpc.ts'

const routeSearch = searchParams({ course: text(120), plan: text(60) })
const PLAN_TERMS = [1, 3, 12] as const

export const Route = createFileRoute('/gifts/new')({
  validateSearch: routeSearch,
  beforeLoad: async ({ context, location, preload }) => {
    await requireUser(context, location.href, { notice: 'Please log in to buy a gift', preload })
  },
  loaderDeps: ({ search }) => ({ course: search.course, plan: search.plan }),
  loader: async ({ context: { queryClient, trpc }, deps }) => {
    if (deps.plan) {
      const { plans } = await queryClient.ensureQueryData(trpc.plans.list.queryOptions())
      if (!plans.some((plan) => plan.id === deps.plan)) throw notFound()
      await queryClient.prefetchQuery(trpc.payments.options.queryOptions())
      return
    }
    if (!deps.course) throw notFound()
    const course = await queryClient.ensureQueryData(trpc.catalog.course.queryOptions({ id: deps.course }))
    if (!course) throw notFound()
    await queryClient.prefetchQuery(trpc.payments.options.queryOptions())
  },
  head: () => ({ meta: [{ title: 'Buy as a gift | SkillForge' }] }),
  pendingComponent: () => <LoadingState label="Loading…" />,
  errorComponent: routeError('The gift page could not be loaded.'),
  component: GiftPage,
})

const GIFT_MESSAGE_MAX = 1000

function GiftPage() {
  return Route.useSearch().plan ? <PlanGift /> : <CourseGift />
}

/** A plan given for a prepaid term: 1 or 3 months at the monthly price, 12 at the annual; it never renews. */
function PlanGift() {
  const trpc = useTRPC()
  const { plan: planId } = Route.useSearch()
  const { data } = useSuspenseQuery(trpc.plans.list.queryOptions())
  const plan = data.plans.find((p) => p.id === planId)
  const [months, setMonths] = useState<(typeof PLAN_TERMS)[number]>(1)
  if (!plan) return null
  const priceOf = (term: number) => (term === 12 ? plan.annualPriceMinor : plan.monthlyPriceMinor * term)
  return (
    <GiftForm
      title={`${plan.name} membership`}
      priceText={formatMoney(priceOf(months), plan.currency)}
      free={false}
      explainer="We e-mail the recipient a link to claim the membership; it starts the day they claim it and ends after the term you choose (it never renews). You are not subscribed yourself."
      item={{ planId: plan.id, planMonths: months }}
      back={
        <Link to="/pricing" className={button({ variant: 'outline', size: 'lg' })}>
          Back to plans
        </Link>
      }
      extraFields={
        <SelectField
          label="Length of the membership"
          name="planMonths"
          value={String(months)}
          onChange={(event) => setMonths(Number(event.target.value) as (typeof PLAN_TERMS)[number])}
        >
          <Options
            items={PLAN_TERMS}
            label={(term) =>
              `${term} ${term === 1 ? 'month' : 'months'} — ${formatMoney(priceOf(term), plan.currency)}`
            }
          />
        </SelectField>
      }
    />
  )
}

function CourseGift() {
  const trpc = useTRPC()
  const { course: courseId } = Route.useSearch()
  const { data: course } = useSuspenseQuery(trpc.catalog.course.queryOptions({ id: courseId! }))
  const currencies = course ? soldIn(course.prices) : []
  // A course sold in USD and GBP is paid in the one chosen, as on its page (decision 0069); the server prices it.
  const [chosen, setChosen] = useState<Currency | undefined>(undefined)
  if (!course) return null
  const currency =
    chosen ?? (currencies.includes(course.currency as Currency) ? (course.currency as Currency) : undefined)
  const free = course.priceMinor === 0
  const price = currency ? (course.prices[currency] ?? course.priceMinor) : course.priceMinor
  return (
    <GiftForm
      title={course.title}
      priceText={free ? 'Free' : formatMoney(price, currency ?? course.currency)}
      free={free}
      explainer="We e-mail the recipient a link to claim the course; they sign up or log in to start learning. You are not enrolled yourself."
      item={currencies.length > 1 ? { courseId: course.id, currency } : { courseId: course.id }}
      extraFields={
        currencies.length > 1 ? (
          <SelectField
            label="Pay in"
            name="currency"
            value={currency}
            onChange={(event) => setChosen(event.target.value === 'GBP' ? 'GBP' : 'USD')}
          >
            <option value="USD">US dollars ({formatMoney(course.prices.USD ?? 0, 'USD')})</option>
            <option value="GBP">Pounds ({formatMoney(course.prices.GBP ?? 0, 'GBP')})</option>
          </SelectField>
        ) : null
      }
      back={
        <Link
          to="/courses/$courseId"
          params={{ courseId: course.id }}
          className={button({ variant: 'outline', size: 'lg' })}
        >
          Back to course
        </Link>
      }
    />
  )
}

function GiftForm({
  title,
  priceText,
  free,
  explainer,
  item,
  back,
  extraFields,
}: {
  title: string
  priceText: string
  free: boolean
  explainer: string
  item: { courseId: string; currency?: Currency } | { planId: string; planMonths: 1 | 3 | 12 }
  back: React.ReactNode
  extraFields?: React.ReactNode
}) {
  const trpc = useTRPC()
  const navigate = useNavigate()
  const payment = usePaymentChoice()
  const { method, bankOrder } = payment
  const checkout = useMutation(trpc.gifts.checkout.mutationOptions())
  const [error, setError] = useState<string | null>(null)
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({})
  const submitRef = useRef<HTMLButtonElement>(null)
  const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10)

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (checkout.isPending) return
    const form = new FormData(event.currentTarget)
    if (!method && !free) {
      setError(PAYMENT_MESSAGES.selectMethod)
      return
    }
    setError(null)
    setFieldErrors({})
    try {
      const started = await checkout.mutateAsync({
        ...item,
        recipientEmail: String(form.get('recipientEmail') ?? ''),
        message: String(form.get('message') ?? ''),
        sendOn: String(form.get('sendOn') ?? ''),
        method: free ? 'free' : method!,
      })
      if (started.method === 'free') {
        notify('success', 'Your gift is on its way.')
        await navigate({ to: '/account', hash: 'my-gifts' })
      } else if (started.method === 'card') {
        notify('info', PAYMENT_MESSAGES.redirected)
        window.location.assign(started.url)
      } else if (started.method === 'paypal') {
        window.open(started.url, '_blank', 'noopener,noreferrer')
        notify('info', `Your gift order ${started.reference} is pending until we confirm your PayPal payment.`)
        await navigate({ to: '/account', hash: 'my-gifts' })
      } else {
        payment.showBankOrder(started)
      }
    } catch (caught) {
      const fields = serverFieldErrors(caught) ?? {}
      setFieldErrors(fields)
      setError(Object.keys(fields).length ? 'Please correct the fields below.' : errorMessage(caught))
    }
  }

  async function confirmBank() {
    if (!bankOrder) return
    try {
      await payment.confirmTransfer(bankOrder)
      notify('success', 'Thanks: the gift goes out once we confirm your transfer.')
      payment.showBankOrder(null)
      await navigate({ to: '/account', hash: 'my-gifts' })
    } catch (caught) {
      setError(errorMessage(caught))
    }
  }

  return (
    <main>
      <PageIntro title="Buy as a gift" />
      <Container className={css({ py: '8', maxW: '2xl' })}>
        <p className={css({ mb: '6' })}>
          <strong>{title}</strong> <span className={css({ color: 'fg.muted' })}>{priceText}</span>
        </p>
        <p className={css({ mb: '6', fontSize: 'sm', color: 'fg.muted' })}>{explainer}</p>
        <form {...SCRIPT_ONLY_FORM} onSubmit={onSubmit} className={css({ display: 'grid', gap: '5' })} noValidate>
          <FormAlert>{error}</FormAlert>
          {extraFields}
          <TextField
            label="Recipient's email"
            name="recipientEmail"
            type="email"
            autoComplete="off"
            required
            error={fieldErrors.recipientEmail}
          />
          <TextAreaField
            label="Message (optional)"
            name="message"
            maxLength={GIFT_MESSAGE_MAX}
            rows={4}
            error={fieldErrors.message}
          />
          <TextField
            label="Send on (optional)"
            name="sendOn"
            type="date"
            min={tomorrow}
            hint="Leave empty to send it as soon as the payment is confirmed. A chosen day's e-mail goes out at 08:00 UTC."
            error={fieldErrors.sendOn}
          />
          {free ? null : <PaymentMethods {...payment.methods} />}
          <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
            <button
              ref={submitRef}
              type="submit"
              className={button({ size: 'lg' })}
              {...submitWhilePending(checkout.isPending)}
            >
              {checkout.isPending ? 'Processing…' : free ? 'Send Gift' : 'Pay for Gift'}
            </button>
            {back}
          </div>
        </form>
      </Container>
      <BankTransferDialog
        {...payment.bankDialog}
        onConfirm={() => void confirmBank()}
        returnFocusTo={() => submitRef.current}
      />
    </main>
  )
}
