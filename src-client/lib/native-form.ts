// Forms that work before the page's JavaScript has arrived (progressive enhancement, issue 27): the browser posts
// them to the page's own address and the server answers with a redirect, or with the page rendered again with the
// result (src-server/http/native-forms.ts). Once hydrated, the same form is sent through tRPC instead.
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { NATIVE_FORM_KEY, type NativeFormResult, type PostedFields } from '#shared/native-form.ts'

/**
 * The result of this page's form when the server rendered it after a native post, read once as the page's first
 * state (the same on the server and while hydrating), then dropped so a later visit starts clean.
 */
export function useNativeFormResult(form: string): NativeFormResult | undefined {
  const queryClient = useQueryClient()
  const [result] = useState(() => {
    const found = queryClient.getQueryData<NativeFormResult>(NATIVE_FORM_KEY)
    return found?.form === form ? found : undefined
  })
  useEffect(() => {
    queryClient.removeQueries({ queryKey: NATIVE_FORM_KEY })
  }, [queryClient])
  return result
}

/** A form's fields as the browser would post them, to read as the server reads a native post (text fields only). */
export function postedFields(form: HTMLFormElement): PostedFields {
  return Object.fromEntries(
    [...new FormData(form)].flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])),
  )
}

/**
 * A secret read from the address (a reset or invitation token), kept for the page and then taken out of the address
 * bar, so it stays out of history and of an address copied and shared. The router's own state is left alone.
 */
export function useTokenFromAddress(token: string | undefined): string | undefined {
  const [kept] = useState(() => token ?? stashedToken())
  useEffect(() => {
    forgetStashedToken()
    const url = new URL(window.location.href)
    if (!url.searchParams.has('token')) return
    url.searchParams.delete('token')
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`)
  }, [])
  return kept
}

/**
 * Spread on every form that only its script sends (through tRPC): a native submit, before hydration or with
 * JavaScript off, then goes nowhere ("dialog" outside a <dialog>), never a GET with the fields in the address. Forms
 * the server answers itself say method="post" (src-server/http/native-forms.ts); search forms say method="get".
 */
export const SCRIPT_ONLY_FORM = { method: 'dialog' } as const

const STASHED_TOKEN = 'address-token:'

/**
 * The address a sign-in comes back to, without its token: a signed-out visitor following an invitation link is sent
 * to /login first, and the token would ride along in `?redirect=` (history, the log-in page's address). It waits in
 * this tab's session storage instead, for the page at that path (useTokenFromAddress takes it once).
 */
export function withoutAddressToken(href: string): string {
  if (typeof window === 'undefined') return href
  const url = new URL(href, window.location.origin)
  const token = url.searchParams.get('token')
  if (!token) return href
  try {
    sessionStorage.setItem(STASHED_TOKEN + url.pathname, token)
  } catch {
    return href // storage refused (a private window's quota): the token stays in the address as before
  }
  url.searchParams.delete('token')
  return `${url.pathname}${url.search}${url.hash}`
}

/** The token stashed for this page by withoutAddressToken, read during render (React may render twice). */
function stashedToken(): string | undefined {
  if (typeof window === 'undefined') return undefined
  try {
    return sessionStorage.getItem(STASHED_TOKEN + window.location.pathname) ?? undefined
  } catch {
    return undefined
  }
}

/** Once the page has kept it: a stashed token serves one visit. */
function forgetStashedToken() {
  try {
    sessionStorage.removeItem(STASHED_TOKEN + window.location.pathname)
  } catch {
    // storage refused: nothing was stashed
  }
}
