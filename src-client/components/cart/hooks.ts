// Cart state from the server (never local storage): the list, whether an item is in it, and adding with
// the spec's toasts. Every cart query is invalidated together after a change, so the header count follows.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { errorCode, errorMessage } from '#client/lib/errors.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { CART_MESSAGES, type CartItemInput, cartItemKey } from '#shared/cart.ts'
import { notify, notifyError, notifyLoginNeeded } from '../ui/toaster.tsx'

/** null for a visitor; undefined while loading. */
export function useCart() {
  const trpc = useTRPC()
  return useQuery(trpc.cart.list.queryOptions())
}

export function useEntitlements() {
  const trpc = useTRPC()
  return useQuery(trpc.purchases.entitlements.queryOptions())
}

/** Refreshes the cart and what depends on it (header count, buttons, entitlements after a purchase). */
export function useRefreshPurchases() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.cart.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.purchases.pathKey() }),
    ])
}

export type AddState = 'idle' | 'adding' | 'added'

/** Add-to-cart for one item: its state follows the server cart; toasts per spec §8. */
export function useAddToCart(item: CartItemInput) {
  const trpc = useTRPC()
  const cart = useCart()
  const refresh = useRefreshPurchases()
  const mutation = useMutation(trpc.cart.add.mutationOptions())
  const key = cartItemKey(item)
  // A cart holds one plan: the same plan in another cycle is not this item (adding it replaces that one).
  const inCart = Boolean(
    cart.data?.items.some(
      (line) => line.key === key && (item.kind !== 'plan' || line.billingCycle === item.billingCycle),
    ),
  )

  async function add() {
    if (state !== 'idle') return
    if (cart.data === null) {
      notifyLoginNeeded(CART_MESSAGES.loginToAdd)
      return
    }
    try {
      const added = await mutation.mutateAsync(item)
      if (added.replaced) notify('info', added.replaced)
      else
        notify('success', added.kind === 'plan' ? `${added.title} plan added to cart` : `${added.title} added to cart`)
    } catch (error) {
      const code = errorCode(error)
      if (code === 'CONFLICT') notify('info', errorMessage(error, CART_MESSAGES.duplicate))
      else if (code === 'UNAUTHORIZED') notifyLoginNeeded(CART_MESSAGES.loginToAdd)
      else notifyError(error, CART_MESSAGES.addFailed)
    }
    await refresh()
  }

  const state: AddState = mutation.isPending ? 'adding' : inCart ? 'added' : 'idle'
  return { state, add, checking: cart.isPending }
}
