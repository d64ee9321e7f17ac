// "My video uploads" (/studio/uploads): a creator's lesson videos (and their course teams' for their courses) with
// their sizes, the storage they use of the plan, a new upload (VideoUpload: resumable), and removing a video no
// lesson uses. Creators only: the server refuses everyone else (creatorProcedure), and this page says so.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import { VideoUpload } from '#client/components/studio/VideoUpload.tsx'
import { button } from '#client/components/ui/button.ts'
import { studioCard as card } from '#client/components/ui/panel.ts'
import { EmptyState, ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { errorCode } from '#client/lib/errors.ts'
import { requireUser } from '#client/lib/session.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatBytes, formatSeconds } from '#shared/bytes.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/studio/uploads')({
  beforeLoad: async ({ context, location }) => ({ user: await requireUser(context, location.href) }),
  // The list shows its own states (a customer who is not a creator gets the page's explanation, not an error page).
  loader: ({ context: { queryClient, trpc } }) => queryClient.prefetchQuery(trpc.creatorUploads.list.queryOptions()),
  head: () => ({ meta: [{ title: 'My video uploads | SkillForge' }] }),
  component: UploadsPage,
})

type Uploads = RouterOutputs['creatorUploads']['list']
type Upload = Uploads['uploads'][number]

function StorageLine({ storage }: { storage: Uploads['storage'] }) {
  if (!storage.hasPlan) {
    return (
      <p data-testid="storage-used">
        {formatBytes(storage.usedBytes)} of video stored. Choose a plan to upload videos:{' '}
        <Link to="/pricing" className={css({ color: 'accent', textDecoration: 'underline' })}>
          see Pricing
        </Link>
        .
      </p>
    )
  }
  return (
    <p data-testid="storage-used">
      {storage.limitBytes === null
        ? `${formatBytes(storage.usedBytes)} of video stored (unlimited on your ${storage.planName ?? ''} plan)`
        : `${formatBytes(storage.usedBytes)} of ${formatBytes(storage.limitBytes)} video storage used (${storage.planName ?? ''} plan)`}
    </p>
  )
}

/** The renditions' state as the creator reads it (decision 0064). */
function transcodeLabel(transcode: Upload['transcode']): string | null {
  if (!transcode) return null
  switch (transcode.state) {
    case 'processing':
      return `Processing ${transcode.percent} %`
    case 'ready':
      return 'Ready'
    case 'failed':
      return 'Processing failed: plays as uploaded'
    default:
      return 'Transcoding unavailable: plays as uploaded'
  }
}

function UploadRow({ upload, onRemove, removing }: { upload: Upload; onRemove: () => void; removing: boolean }) {
  const state = upload.status === 'uploading' ? 'Not finished' : upload.attached ? 'Used by a lesson' : 'Not used yet'
  // A course team's uploads count on the course owner's plan (decision 0138).
  const whose = upload.byTeam
    ? ' · Uploaded by your course team'
    : upload.countedByOwner
      ? ' · For a course you co-teach: counts on its owner’s plan'
      : ''
  const transcode = transcodeLabel(upload.transcode)
  return (
    <li
      data-testid="upload-row"
      className={css({
        display: 'flex',
        flexWrap: 'wrap',
        gap: '2',
        alignItems: 'center',
        justifyContent: 'space-between',
        py: '3',
        borderTopWidth: '1px',
        borderColor: 'line',
        _first: { borderTopWidth: '0' },
      })}
    >
      <div className={css({ minW: '0', flex: '1 1 14rem' })}>
        <p className={css({ fontWeight: 'medium', wordBreak: 'break-all' })}>{upload.fileName}</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {formatBytes(upload.sizeBytes)}
          {upload.durationSeconds !== null ? ` · ${formatSeconds(upload.durationSeconds)}` : ''} · {state}
          {whose}
          {transcode ? (
            <>
              {' · '}
              <span data-testid="upload-transcode" role="status">
                {transcode}
              </span>
            </>
          ) : null}
        </p>
      </div>
      {upload.status === 'stored' ? (
        <a
          href={`/api/uploads/videos/${encodeURIComponent(upload.uploadId)}/original`}
          download
          className={button({ variant: 'ghost', size: 'sm' })}
          aria-label={`Download the original of ${upload.fileName}`}
        >
          Download original
        </a>
      ) : null}
      {upload.attached ? null : (
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          onClick={onRemove}
          disabled={removing}
          aria-label={`Delete ${upload.fileName}`}
        >
          {removing ? 'Deleting…' : 'Delete'}
        </button>
      )}
    </li>
  )
}

function UploadsPage() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const list = useQuery({
    ...trpc.creatorUploads.list.queryOptions(),
    // While a video is processing, its percentage moves: look again every 2 s until none is.
    refetchInterval: (query) =>
      query.state.data?.uploads.some((upload) => upload.transcode?.state === 'processing') ? 2000 : false,
  })
  const [removing, setRemoving] = useState<string | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.creatorUploads.list.queryKey() })
  const release = useMutation(trpc.creatorUploads.release.mutationOptions())

  async function remove(upload: Upload) {
    if (!window.confirm(`Delete ${upload.fileName}? This cannot be undone.`)) return
    setRemoving(upload.uploadId)
    try {
      if (upload.status === 'uploading') {
        // An unfinished upload is cancelled over tus itself.
        const response = await fetch(`/api/uploads/tus/${upload.uploadId}`, {
          method: 'DELETE',
          headers: { 'Tus-Resumable': '1.0.0' },
        })
        if (!response.ok) throw new Error((await response.text()) || 'The upload could not be deleted')
      } else {
        await release.mutateAsync({ uploadId: upload.uploadId })
      }
      notify('success', 'Video deleted')
    } catch (error) {
      notifyError(error, error instanceof Error ? error.message : 'The video could not be deleted')
    } finally {
      setRemoving(null)
      await refresh()
    }
  }

  return (
    <main className={css({ display: 'flex', flexDir: 'column', gap: '6', minW: 0 })}>
      <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold' })}>My video uploads</h1>
      {list.isPending ? <LoadingState label="Loading your videos…" /> : null}
      {list.isError ? (
        errorCode(list.error) === 'FORBIDDEN' ? (
          <EmptyState title="Only approved creators can upload videos">
            <p className={css({ mt: '2' })}>
              <Link to="/" className={css({ color: 'accent', textDecoration: 'underline' })}>
                Back to the shop
              </Link>
            </p>
          </EmptyState>
        ) : (
          <ErrorState title="Could not load your videos" error={list.error} onRetry={() => void list.refetch()} />
        )
      ) : null}
      {list.data ? (
        <>
          <section className={card} aria-labelledby="new-upload-title">
            <h2 id="new-upload-title" className={css({ fontSize: 'lg', fontWeight: 'bold', mb: '2' })}>
              Upload a video
            </h2>
            <div className={css({ mb: '4', color: 'fg.muted', fontSize: 'sm' })}>
              <StorageLine storage={list.data.storage} />
            </div>
            <VideoUpload disabled={!list.data.storage.hasPlan} onUploaded={() => void refresh()} />
          </section>
          <section className={card} aria-labelledby="uploads-title">
            <h2 id="uploads-title" className={css({ fontSize: 'lg', fontWeight: 'bold', mb: '2' })}>
              Your videos
            </h2>
            {list.data.uploads.length === 0 ? (
              <p className={css({ color: 'fg.muted' })}>No videos yet. Upload one above.</p>
            ) : (
              <ul>
                {list.data.uploads.map((upload) => (
                  <UploadRow
                    key={upload.uploadId}
                    upload={upload}
                    removing={removing === upload.uploadId}
                    onRemove={() => void remove(upload)}
                  />
                ))}
              </ul>
            )}
          </section>
        </>
      ) : null}
    </main>
  )
}
