import { useMutation, useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { TRPCClientError } from '@trpc/client'
import { useEffect, useState } from 'react'
import { CART_MESSAGES, PAYMENT_MESSAGES, type PaymentMethodValue } from '../../src-shared/cart.ts'
import { CURRENCIES, formatMoney } from '../../src-shared/money.ts'
import { css } from '../../styled-system/css'
import { CartSummary } from '../components/cart/CartSummary.tsx'
import { useCart, useRefreshPurchases } from '../components/cart/hooks.ts'
import { BankTransferDialog, type BankTransferOrder } from '../components/checkout/BankTransferDialog.tsx'
import { PaymentMethods } from '../components/checkout/PaymentMethods.tsx'
import { PaypalHostedButton } from '../components/checkout/PaypalHostedButtons.tsx'
import { PageIntro } from '../components/layout/PageIntro.tsx'
import { button } from '../components/ui/button.ts'
import { Container } from '../components/ui/layout.tsx'
import { ErrorState, LoadingState } from '../components/ui/states.tsx'
import { notify } from '../components/ui/toaster.tsx'
import { optionalEnum, z } from '../lib/search-params.ts'
import { errorMessage } from '../lib/trpc.ts'
import { useTRPC } from '../lib/use-trpc.ts'

export const Route = createFileRoute('/payment')({
  validateSearch: z.object({ currency: optionalEnum(CURRENCIES) }),
  head: () => ({ meta: [{ title: 'Checkout | SkillForge' }] }),
  component: PaymentPage,
})

function PaymentPage() {
  return (
    <main>
      <PageIntro title="Checkout" />
      <Container className={css({ py: '8' })}>
        <Checkout />
      </Container>
    </main>
  )
}

function Checkout() {
  const trpc = useTRPC()
  const cart = useCart()
  const search = Route.useSearch()
  const navigate = useNavigate()
  const refresh = useRefreshPurchases()
  const options = useQuery({ ...trpc.payment.options.queryOptions(), enabled: Boolean(cart.data) })
  const start = useMutation(trpc.payment.start.mutationOptions())
  const confirmTransfer = useMutation(trpc.payment.confirmBankTransfer.mutationOptions())
  const [method, setMethod] = useState<PaymentMethodValue | null>(null)
  const [bankOrder, setBankOrder] = useState<BankTransferOrder | null>(null)
  const [paypalNotice, setPaypalNotice] = useState<string | null>(null)

  const totals = cart.data?.totals ?? []
  const group = totals.find((total) => total.currency === search.currency) ?? totals[0]
  const isEmpty = cart.data !== undefined && cart.data !== null && !group

  useEffect(() => {
    if (cart.data === null) {
      notify('error', 'Please log in to continue')
      void navigate({ to: '/login', search: { redirect: '/payment' }, replace: true })
    } else if (isEmpty && !bankOrder) {
      notify('error', CART_MESSAGES.empty)
      void navigate({ to: '/cart', replace: true })
    }
  }, [cart.data, isEmpty, bankOrder, navigate])

  if (cart.isPending) return <LoadingState label="Loading checkout…" />
  if (cart.isError) return <ErrorState title={CART_MESSAGES.loadFailed} onRetry={() => void cart.refetch()} />
  if (!cart.data || !group) return <LoadingState label="Redirecting…" />

  const lines = cart.data.items.filter((line) => line.currency === group.currency)

  async function pay() {
    if (!method) {
      notify('error', PAYMENT_MESSAGES.selectMethod)
      return
    }
    try {
      const started = await start.mutateAsync({ currency: group!.currency, method })
      if (started.method === 'card') {
        notify('info', PAYMENT_MESSAGES.redirected)
        window.location.assign(started.url)
      } else if (started.method === 'paypal') {
        window.open(started.url, '_blank', 'noopener,noreferrer')
        setPaypalNotice(
          `Your order ${started.reference} for ${formatMoney(started.totalMinor, started.currency)} is pending until we confirm your PayPal payment.`,
        )
      } else {
        setBankOrder(started)
      }
    } catch (error) {
      if (error instanceof TRPCClientError && error.data?.code === 'UNAUTHORIZED') {
        notify('error', 'Please log in to complete your purchase')
        await navigate({ to: '/login', search: { redirect: '/payment' } })
        return
      }
      notify('error', errorMessage(error, PAYMENT_MESSAGES.sessionFailed))
    }
  }

  async function transferMade() {
    if (!bankOrder) return
    try {
      await confirmTransfer.mutateAsync({ orderId: bankOrder.orderId })
      notify('success', PAYMENT_MESSAGES.bankSaved)
      await refresh()
      await navigate({ to: '/' })
    } catch (error) {
      notify('error', errorMessage(error))
    }
  }

  const busy = start.isPending || confirmTransfer.isPending
  return (
    <div className={css({ display: 'grid', gap: '8', gridTemplateColumns: { base: '1fr', lg: '3fr 2fr' } })}>
      <section aria-label="Payment" className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
        {totals.length > 1 ? (
          <label className={css({ display: 'flex', flexDir: 'column', gap: '1', fontSize: 'sm' })}>
            Items to pay for
            <select
              value={group.currency}
              onChange={(event) =>
                void navigate({ to: '/payment', search: { currency: event.target.value as 'USD' | 'GBP' } })
              }
              className={css({
                borderWidth: '1px',
                borderColor: 'line',
                borderRadius: 'control',
                p: '2',
                bg: 'surface',
              })}
            >
              {totals.map((total) => (
                <option key={total.currency} value={total.currency}>
                  {total.currency} items ({formatMoney(total.totalMinor, total.currency)})
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <PaymentMethods
          value={method}
          onChange={setMethod}
          available={{ card: options.data?.card ?? false, paypal: options.data?.paypal ?? false }}
        />
        {method === 'paypal' && options.data?.paypalButtons.length
          ? options.data.paypalButtons.map((item) => <PaypalHostedButton key={item.serviceId} {...item} />)
          : null}
        {paypalNotice ? (
          <p role="status" className={css({ p: '3', bg: 'brand.50', borderRadius: 'control', fontSize: 'sm' })}>
            {paypalNotice}
          </p>
        ) : null}
        <button type="button" className={button({ size: 'lg' })} onClick={() => void pay()} disabled={busy}>
          {start.isPending ? 'Processing...' : `Pay ${formatMoney(group.totalMinor, group.currency)}`}
        </button>
      </section>
      <CartSummary total={group}>
        <ul className={css({ mt: '4', display: 'flex', flexDir: 'column', gap: '2', fontSize: 'sm' })}>
          {lines.map((line) => (
            <li key={line.id} className={css({ display: 'flex', justifyContent: 'space-between', gap: '3' })}>
              <span>{line.title}</span>
              <span>{formatMoney(line.priceMinor, line.currency)}</span>
            </li>
          ))}
        </ul>
      </CartSummary>
      <BankTransferDialog
        order={bankOrder}
        onClose={() => setBankOrder(null)}
        onConfirm={() => void transferMade()}
        confirming={confirmTransfer.isPending}
      />
    </div>
  )
}
