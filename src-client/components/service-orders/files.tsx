// Files of a service order: the upload (checked in the browser for a quick answer, then by the server by its
// bytes) and the list of links, which go through the server's session-checked download route.
import { type Dispatch, type SetStateAction, useState } from 'react'
import { pickWhilePending } from '#client/lib/while-pending.ts'
import { SERVICE_FILE_ACCEPT, SERVICE_FILE_MAX_BYTES, SERVICE_ORDER_MESSAGES } from '#shared/service-orders.ts'
import { css } from '#styled-system/css'
import { TextField } from '../ui/form.tsx'
import { uploadFile } from '../ui/upload-file.ts'

export interface OrderFile {
  id: string
  name: string
  sizeBytes: number
  url: string
}

export async function uploadServiceFile(
  orderId: string,
  purpose: 'brief' | 'message' | 'delivery',
  file: File,
): Promise<OrderFile | null> {
  return uploadFile<OrderFile>(`/api/service-orders/${orderId}/files?purpose=${purpose}`, file, {
    maxBytes: SERVICE_FILE_MAX_BYTES,
    tooLarge: SERVICE_ORDER_MESSAGES.fileTooLarge,
    failed: SERVICE_ORDER_MESSAGES.uploadFailed,
  })
}

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`

export function FileLinks({ files, onRemove }: { files: OrderFile[]; onRemove?: (file: OrderFile) => void }) {
  if (files.length === 0) return null
  return (
    <ul className={css({ display: 'flex', flexDir: 'column', gap: '1', fontSize: 'sm' })}>
      {files.map((file) => (
        <li key={file.id} className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
          <a href={file.url} className={css({ color: 'accent', textDecoration: 'underline' })}>
            {file.name}
          </a>
          <span className={css({ color: 'fg.muted' })}>({sizeText(file.sizeBytes)})</span>
          {onRemove ? (
            <button
              type="button"
              className={css({ color: 'danger', fontSize: 'xs', cursor: 'pointer' })}
              onClick={() => onRemove(file)}
              aria-label={`Remove ${file.name}`}
            >
              Remove
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  )
}

/** A labelled file picker that uploads each chosen file at once and reports it. */
export function FilePicker({
  orderId,
  purpose,
  label,
  onUploaded,
}: {
  orderId: string
  purpose: 'brief' | 'message' | 'delivery'
  label: string
  onUploaded: (file: OrderFile) => void
}) {
  const [busy, setBusy] = useState(false)
  return (
    <TextField
      label={label}
      className={css({ display: 'flex', flexDir: 'column', gap: '1', fontSize: 'sm' })}
      hint={busy ? 'Uploading…' : 'PDF, images or office documents, up to 10MB'}
      type="file"
      accept={SERVICE_FILE_ACCEPT}
      {...pickWhilePending(busy, async (event) => {
        const input = event.currentTarget
        const file = input.files?.[0]
        if (!file) return
        setBusy(true)
        const stored = await uploadServiceFile(orderId, purpose, file)
        setBusy(false)
        input.value = ''
        if (stored) onUploaded(stored)
      })}
    />
  )
}

/**
 * The files a message or a delivery is about to send: their links, each with Remove, and the picker that adds one.
 * `setFiles` is the form's own state setter, so two uploads finishing together both stay.
 */
export function AttachedFiles({
  orderId,
  purpose,
  label,
  files,
  setFiles,
}: {
  orderId: string
  purpose: 'message' | 'delivery'
  label: string
  files: OrderFile[]
  setFiles: Dispatch<SetStateAction<OrderFile[]>>
}) {
  return (
    <>
      <FileLinks files={files} onRemove={(file) => setFiles(files.filter((f) => f.id !== file.id))} />
      <FilePicker
        orderId={orderId}
        purpose={purpose}
        label={label}
        onUploaded={(file) => setFiles((current) => [...current, file])}
      />
    </>
  )
}
