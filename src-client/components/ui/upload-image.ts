// Image uploads (the avatar, a course image): checked in the browser first for a quick answer, sent as the
// multipart field `file`, and the server's own wording shown when it refuses. The server checks everything again.
import { OUTAGE } from '#shared/outage.ts'
import { IMAGE_MAX_BYTES, IMAGE_UPLOAD_MESSAGES } from '#shared/uploads.ts'
import { notify } from './toaster.tsx'

const REFUSALS = [400, 413, 429]

/** Posts `file` to `endpoint`; toasts any failure and resolves to the stored image's URL (`urlField`) or null. */
export async function uploadImage(
  endpoint: string,
  file: File,
  urlField: 'url' | 'avatarUrl' | 'imageUrl',
): Promise<{ url: string; message?: string } | null> {
  const fail = (message: string) => {
    notify('error', message)
    return null
  }
  if (!file.type.startsWith('image/')) return fail(IMAGE_UPLOAD_MESSAGES.notImage)
  if (file.size > IMAGE_MAX_BYTES) return fail(IMAGE_UPLOAD_MESSAGES.tooLarge)
  try {
    const body = new FormData()
    body.append('file', file)
    const response = await fetch(endpoint, { method: 'POST', body, credentials: 'same-origin' })
    const answer = (await response.json().catch(() => ({}))) as Record<string, string | undefined>
    const url = answer[urlField]
    if (response.ok && url) return { url, message: answer.message }
    if (response.status === 503) {
      notify('error', OUTAGE.title, OUTAGE.message)
      return null
    }
    return fail(REFUSALS.includes(response.status) && answer.message ? answer.message : IMAGE_UPLOAD_MESSAGES.failed)
  } catch {
    return fail(IMAGE_UPLOAD_MESSAGES.failed)
  }
}
