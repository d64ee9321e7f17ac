// Copy to the clipboard with the 'Copied' indicator of spec §9 (2 s), or the spec's failure toast.
import { useEffect, useState } from 'react'
import { PAYMENT_MESSAGES } from '#shared/cart.ts'
import { COPY_INDICATOR_MS } from '#shared/constants.ts'
import { notify } from './toaster.tsx'

export function useCopy() {
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), COPY_INDICATOR_MS)
    return () => clearTimeout(timer)
  }, [copied])
  async function copy(value: string) {
    try {
      await navigator.clipboard.writeText(value)
      setCopied(true)
    } catch {
      notify('error', PAYMENT_MESSAGES.copyFailed)
    }
  }
  return { copied, copy }
}
