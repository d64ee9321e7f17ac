// Attachments (a conversation's, a service order's): checked for size in the browser first for a quick answer, sent
// as the multipart field `file`. One place so every attachment box answers a failure alike: a refusal in the
// server's own words, an outage with the outage notice, anything else with the caller's `failed` text.
import { OUTAGE } from '#shared/outage.ts'
import { notify } from './toaster.tsx'

/** Posts `file` to `endpoint`; toasts any failure and resolves to the server's answer (the stored file) or null. */
export async function uploadFile<Stored extends { id: string }>(
  endpoint: string,
  file: File,
  words: { maxBytes: number; tooLarge: string; failed: string },
): Promise<Stored | null> {
  if (file.size > words.maxBytes) {
    notify('error', words.tooLarge)
    return null
  }
  try {
    const body = new FormData()
    body.append('file', file)
    const response = await fetch(endpoint, { method: 'POST', body, credentials: 'same-origin' })
    const answer = (await response.json().catch(() => ({}))) as Partial<Stored> & { message?: string }
    if (response.ok && answer.id) return answer as Stored
    if (response.status === 503) notify('error', OUTAGE.title, OUTAGE.message)
    else notify('error', response.status < 500 && answer.message ? answer.message : words.failed)
  } catch {
    notify('error', words.failed)
  }
  return null
}
