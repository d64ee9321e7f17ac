import { useMutation } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import { css } from '#styled-system/css'
import { AuthCard } from '../components/auth/AuthCard.tsx'
import { button } from '../components/ui/button.ts'
import { FormAlert } from '../components/ui/form.tsx'
import { LoadingState } from '../components/ui/states.tsx'
import { notify } from '../components/ui/toaster.tsx'
import { GENERIC_ERROR, refusalMessage } from '../lib/errors.ts'
import { optionalText, searchParams } from '../lib/search-params.ts'
import { requireUser } from '../lib/session.ts'

const routeSearch = searchParams({ order: optionalText })

// The cart reminder's link (issue 32): the order's lines go back into the cart, then on to the cart.
export const Route = createFileRoute('/cart_/restore')({
  validateSearch: routeSearch,
  beforeLoad: async ({ context, location, preload }) => {
    await requireUser(context, location.href, { notice: 'Please log in to restore your cart', preload })
  },
  head: () => ({ meta: [{ title: 'Restore your cart | SkillForge' }] }),
  component: RestoreCartPage,
})

function RestoreCartPage() {
  const { trpc } = Route.useRouteContext()
  const { order } = Route.useSearch()
  const navigate = useNavigate()
  const restore = useMutation(trpc.cartReminders.restore.mutationOptions())
  const started = useRef(false)

  useEffect(() => {
    if (!order || started.current) return
    started.current = true
    restore.mutate(
      { orderId: order },
      {
        onSuccess: () => {
          notify('success', 'Your cart is filled again.')
          void navigate({ to: '/cart' })
        },
      },
    )
  }, [order, restore, navigate])

  return (
    <AuthCard title="Restore your cart">
      <div className={css({ display: 'grid', gap: '4' })}>
        {!order ? (
          <FormAlert>This link is not valid.</FormAlert>
        ) : restore.isError ? (
          <FormAlert>{refusalMessage(restore.error, GENERIC_ERROR)}</FormAlert>
        ) : (
          <LoadingState label="Restoring your cart…" />
        )}
        <Link to="/cart" className={button({ variant: 'outline' })}>
          Go to cart
        </Link>
      </div>
    </AuthCard>
  )
}
