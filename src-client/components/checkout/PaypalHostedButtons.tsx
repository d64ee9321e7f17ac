// The PayPal hosted button of a service that has one configured (spec §7): the SDK script with the client id,
// currency USD, the hosted-buttons component and venmo disabled. A script that fails to load says so.
import { useEffect, useRef } from 'react'
import { PAYMENT_MESSAGES } from '#shared/cart.ts'
import { css } from '#styled-system/css'
import { notify } from '../ui/toaster.tsx'

interface PaypalNamespace {
  HostedButtons(options: { hostedButtonId: string }): { render(selector: string): Promise<void> }
}

function loadPaypal(clientId: string): Promise<PaypalNamespace> {
  const existing = (window as unknown as { paypal?: PaypalNamespace }).paypal
  if (existing) return Promise.resolve(existing)
  return new Promise((resolve, reject) => {
    const script = document.createElement('script')
    const params = new URLSearchParams({
      'client-id': clientId,
      components: 'hosted-buttons',
      'disable-funding': 'venmo',
      currency: 'USD',
    })
    script.src = `https://www.paypal.com/sdk/js?${params}`
    script.async = true
    script.onload = () => {
      const paypal = (window as unknown as { paypal?: PaypalNamespace }).paypal
      if (paypal) resolve(paypal)
      else reject(new Error('PayPal SDK missing'))
    }
    script.onerror = () => reject(new Error('PayPal SDK failed to load'))
    document.head.appendChild(script)
  })
}

export function PaypalHostedButton({
  clientId,
  hostedButtonId,
  title,
}: {
  clientId: string
  hostedButtonId: string
  title: string
}) {
  const container = useRef<HTMLDivElement>(null)
  const id = `paypal-${hostedButtonId}`
  useEffect(() => {
    let cancelled = false
    loadPaypal(clientId)
      .then((paypal) => (cancelled ? undefined : paypal.HostedButtons({ hostedButtonId }).render(`#${id}`)))
      .catch(() => {
        if (!cancelled) notify('error', PAYMENT_MESSAGES.paypalLoadFailed)
      })
    return () => {
      cancelled = true
    }
  }, [clientId, hostedButtonId, id])
  return (
    <div className={css({ mt: '3' })}>
      <p className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>{title}</p>
      <div id={id} ref={container} />
    </div>
  )
}
