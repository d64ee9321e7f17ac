import { useMutation, useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link, notFound, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useRef, useState } from 'react'
import { PAYMENT_MESSAGES, type PaymentMethodValue } from '#shared/cart.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { BankTransferDialog, type BankTransferOrder } from '../components/checkout/BankTransferDialog.tsx'
import { PaymentMethods } from '../components/checkout/PaymentMethods.tsx'
import { PageIntro } from '../components/layout/PageIntro.tsx'
import { button } from '../components/ui/button.ts'
import { FormAlert, TextAreaField, TextField } from '../components/ui/form.tsx'
import { Container } from '../components/ui/layout.tsx'
import { routeError } from '../components/ui/RouteError.tsx'
import { LoadingState } from '../components/ui/states.tsx'
import { notify } from '../components/ui/toaster.tsx'
import { errorMessage } from '../lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '../lib/native-form.ts'
import { searchParams, text } from '../lib/search-params.ts'
import { requireUser } from '../lib/session.ts'
import { useTRPC } from '../lib/use-trpc.ts'

const routeSearch = searchParams({ course: text(120) })

export const Route = createFileRoute('/gifts/new')({
  validateSearch: routeSearch,
  beforeLoad: async ({ context, location, preload }) => {
    await requireUser(context, location.href, { notice: 'Please log in to buy a gift', preload })
  },
  loaderDeps: ({ search }) => ({ course: search.course }),
  loader: async ({ context: { queryClient, trpc }, deps }) => {
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
  const trpc = useTRPC()
  const navigate = useNavigate()
  const { course: courseId } = Route.useSearch()
  const { data: course } = useSuspenseQuery(trpc.catalog.course.queryOptions({ id: courseId! }))
  const options = useQuery(trpc.payments.options.queryOptions())
  const checkout = useMutation(trpc.gifts.checkout.mutationOptions())
  const confirmTransfer = useMutation(trpc.payments.confirmBankTransfer.mutationOptions())
  const [method, setMethod] = useState<PaymentMethodValue | null>(null)
  const [bankOrder, setBankOrder] = useState<BankTransferOrder | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({})
  const submitRef = useRef<HTMLButtonElement>(null)
  if (!course) return null
  const free = course.priceMinor === 0
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
        courseId: course!.id,
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
        setBankOrder(started)
      }
    } catch (caught) {
      const flat = (caught as { data?: { zodError?: { fieldErrors?: Record<string, string[]> } } }).data?.zodError
      const fields = Object.fromEntries(
        Object.entries(flat?.fieldErrors ?? {}).map(([key, messages]) => [key, messages?.[0] ?? '']),
      )
      setFieldErrors(fields)
      setError(Object.keys(fields).length ? 'Please correct the fields below.' : errorMessage(caught))
    }
  }

  async function confirmBank() {
    if (!bankOrder) return
    try {
      await confirmTransfer.mutateAsync({ orderId: bankOrder.orderId })
      notify('success', 'Thanks: the gift goes out once we confirm your transfer.')
      setBankOrder(null)
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
          <strong>{course.title}</strong>{' '}
          <span className={css({ color: 'fg.muted' })}>
            {free ? 'Free' : formatMoney(course.priceMinor, course.currency)}
          </span>
        </p>
        <p className={css({ mb: '6', fontSize: 'sm', color: 'fg.muted' })}>
          We e-mail the recipient a link to claim the course; they sign up or log in to start learning. You are not
          enrolled yourself.
        </p>
        <form {...SCRIPT_ONLY_FORM} onSubmit={onSubmit} className={css({ display: 'grid', gap: '5' })} noValidate>
          {error ? <FormAlert>{error}</FormAlert> : null}
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
          {free ? null : (
            <PaymentMethods
              value={method}
              onChange={setMethod}
              available={{ card: options.data?.card ?? false, paypal: options.data?.paypal ?? false }}
            />
          )}
          <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
            <button ref={submitRef} type="submit" className={button({ size: 'lg' })} disabled={checkout.isPending}>
              {checkout.isPending ? 'Processing…' : free ? 'Send Gift' : 'Pay for Gift'}
            </button>
            <Link
              to="/courses/$courseId"
              params={{ courseId: course.id }}
              className={button({ variant: 'outline', size: 'lg' })}
            >
              Back to course
            </Link>
          </div>
        </form>
      </Container>
      <BankTransferDialog
        order={bankOrder}
        onClose={() => setBankOrder(null)}
        onConfirm={() => void confirmBank()}
        confirming={confirmTransfer.isPending}
        returnFocusTo={() => submitRef.current}
      />
    </main>
  )
}
