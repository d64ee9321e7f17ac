// Creators' resumable lesson video uploads over the tus protocol (https://tus.io), served by @tus/server:
//   POST   /api/uploads/tus        starts an upload (Upload-Length required, up to 4 GB and within the plan's room)
//   HEAD   /api/uploads/tus/<id>   how far it got (Upload-Offset), to resume after a dropped connection or a reload
//                                  (all its bytes there but not stored, storage having failed: stored now, or 503)
//   PATCH  /api/uploads/tus/<id>   the next bytes at Upload-Offset (another offset: 409); the last ones finish it
//   DELETE /api/uploads/tus/<id>   cancels an upload in progress, or removes a stored video no lesson uses
// Every request needs a session. A lesson video names the course it is for in Upload-Metadata (`courseId`, checked by
// its schema here): anyone who may edit that course's curriculum may start it, counted against the course owner's
// plan (decision 0138); without a course it is a creator's own. An upload id (no secret in it) belongs to whoever
// started it, and anyone else's id is answered 404. An upload whose Upload-Metadata says `purpose application` is an applicant's
// sample video instead: any signed-in person, up to 500 MB, stored under their private applications prefix
// (flows/creator-video-uploads.ts), attached to their application by its id. Refusals answer a plain-text sentence the browser shows (VideoUpload.tsx);
// storage or the database failing answers 503 with Retry-After and our sentence, which tus clients retry.
// The body stream goes to tus untouched: this scope's only content-type parser leaves it unread, and the reply is
// hijacked so tus writes to the raw response.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { CREATOR_VIDEO_MAX_BYTES } from '../../src-shared/creator-plans.ts'
import { SERVICE_UNAVAILABLE_MESSAGE, STORAGE_UNAVAILABLE_MESSAGE } from '../../src-shared/errors.ts'
import {
  type TusUploadMetadata,
  tusUploadMetadata,
  UPLOAD_METADATA_MESSAGES,
} from '../../src-shared/schemas/creator-uploads.ts'
import { APPLICATION_VIDEO_MAX_BYTES } from '../../src-shared/schemas/creators.ts'
import { findUpload } from '../creators/upload-rows.ts'
import {
  cancelVideoUpload,
  finishApplicationVideoUpload,
  finishVideoUpload,
  releaseVideoUpload,
  startApplicationVideoUpload,
  startVideoUpload,
  VIDEO_UPLOAD_MESSAGES,
} from '../flows/creator-video-uploads.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../kernel/db-unavailable.ts'
import { isDomainError } from '../kernel/errors.ts'
import { onFirstUse } from '../kernel/on-first-use.ts'
import { isStorageFailure } from '../kernel/storage-failure.ts'
import { hitUnlessDown, type RateLimiter, type RateRule } from '../security/rate-limit.ts'
import { databaseTusLocker } from '../storage/tus-lock.ts'
import type { TusFiles } from '../storage/tus-store.ts'

export const TUS_PATH = '/api/uploads/tus'
const TUS_VERSION = '1.0.0'

/** Uploads a creator may start: generous for a course's worth of lessons, tight for a script. */
export const TUS_CREATE_RULE: RateRule = { max: 30, windowMs: 60 * 60_000 }
export const TUS_MESSAGES = {
  signIn: 'Please sign in to upload videos',
  tooMany: 'Too many uploads started: please wait a while and try again',
  deferred: 'The upload must say its length (Upload-Length)',
  inUse: 'A lesson uses this video: remove it from the lesson first',
  failed: 'The upload failed: please try again',
  purpose: UPLOAD_METADATA_MESSAGES.purpose,
  finished: 'This upload has finished',
} as const

/** The HTTP status of a refusal by the upload flow, as tus clients read it (4xx: do not retry). */
export function tusStatusOf(kind: string, message: string): number {
  if (message === VIDEO_UPLOAD_MESSAGES.tooLarge || message === VIDEO_UPLOAD_MESSAGES.applicationTooLarge) return 413
  if (message === VIDEO_UPLOAD_MESSAGES.refused || message === VIDEO_UPLOAD_MESSAGES.lengthUnknown) return 415
  switch (kind) {
    case 'unauthenticated':
      return 401
    case 'forbidden':
      return 403
    case 'not_found':
      return 404
    case 'conflict':
      return 409
    // The plan's storage would be passed.
    case 'precondition':
      return 413
    case 'rate_limited':
      return 429
    default:
      return 400
  }
}

/** A thrown refusal in the shape @tus/server answers with. */
function tusRefusal(error: unknown): { status_code: number; body: string } {
  if (isDomainError(error)) return { status_code: tusStatusOf(error.kind, error.message), body: error.message }
  throw error
}

/**
 * Our sentence for an error that is a dependency failing (file storage, the database): answered 503 with Retry-After,
 * which tus clients retry like any 5xx and the upload form shows once it gives up. Null for any other error.
 */
export function unavailableSentence(error: unknown): string | null {
  if (isStorageFailure(error)) return STORAGE_UNAVAILABLE_MESSAGE
  return isDatabaseUnavailable(error) ? SERVICE_UNAVAILABLE_MESSAGE : null
}

/**
 * What an Upload-Metadata header ("key <base64>,key <base64>") says, checked by its schema: a lesson video unless it
 * names another purpose, and for a lesson video the course it is for (decision 0138). A refusal's sentence otherwise.
 */
export function uploadMetadataOf(
  header: unknown,
): { ok: true; metadata: TusUploadMetadata } | { ok: false; message: string } {
  const decoded: Record<string, string> = {}
  if (typeof header === 'string') {
    for (const pair of header.split(',')) {
      const [key = '', value = ''] = pair.trim().split(' ')
      if (key && !(key in decoded)) decoded[key] = Buffer.from(value, 'base64').toString('utf8')
    }
  }
  const parsed = tusUploadMetadata.safeParse({ ...decoded, purpose: decoded.purpose ?? 'lesson' })
  if (parsed.success) return { ok: true, metadata: parsed.data }
  const onPurpose = parsed.error.issues.some((issue) => issue.path.length === 0 || issue.path[0] === 'purpose')
  return { ok: false, message: onPurpose ? TUS_MESSAGES.purpose : UPLOAD_METADATA_MESSAGES.invalid }
}

const uploadIdOf = (url: string) => {
  const last = url.split('?')[0]?.slice(TUS_PATH.length + 1) ?? ''
  return /^[A-Za-z0-9_-]{1,128}$/.test(last) ? last : null
}

export function registerTusUploadRoutes(
  app: FastifyInstance,
  deps: HttpDeps,
  options: { tus: TusFiles; limiter: RateLimiter },
) {
  const { db, storage, config } = deps
  const { tus, limiter } = options
  // Who sent each request tus handles, and for a new upload what its metadata says as checked here (set before
  // handing over, read by its hooks).
  const senderOf = new WeakMap<object, { userId: string; metadata?: TusUploadMetadata }>()
  const sender = (req: { runtime?: { node?: { req: object } } }) => {
    const raw = req.runtime?.node?.req
    const found = raw ? senderOf.get(raw) : undefined
    if (!found) throw { status_code: 401, body: TUS_MESSAGES.signIn }
    return found
  }
  const userOf = (req: { runtime?: { node?: { req: object } } }) => sender(req).userId

  // One writer per upload across every node, not per process (decision 0113).
  const locker = databaseTusLocker(db)

  /**
   * Stores a finished upload (judged, moved into storage and counted by the flow) under the upload's lock, which tus
   * releases before its finish hook: the last PATCH's finish and a HEAD retrying a finish that failed never run
   * together, and the one that comes second finds the row stored. `sizeBytes` null: the HEAD's case, stored only if
   * all its bytes are there (else null).
   */
  async function finishUpload(userId: string, uploadId: string, sizeBytes: number): Promise<{ durationSeconds: number }>
  async function finishUpload(
    userId: string,
    uploadId: string,
    sizeBytes: null,
  ): Promise<{ durationSeconds: number } | null>
  async function finishUpload(userId: string, uploadId: string, sizeBytes: number | null) {
    const lock = locker.newLock(uploadId)
    // Holding the lock, the finish ends before anyone else's request for this upload starts.
    await lock.lock(new AbortController().signal, () => {})
    try {
      const row = await findUpload(db, uploadId)
      if (row?.status === 'stored') return { durationSeconds: row.durationSeconds ?? 0 }
      let size = sizeBytes
      if (size === null) {
        if (row?.status !== 'uploading') return null
        size = await arrivedSize(uploadId)
        if (size === null) return null
      }
      const input = { userId, uploadId, sizeBytes: size }
      // What the upload is for was recorded when it started (its row), whatever the metadata says now.
      return row?.purpose === 'application'
        ? await finishApplicationVideoUpload({ db, storage, tus }, input)
        : await finishVideoUpload({ db, storage, tus }, input, config.creatorLimits)
    } finally {
      await lock.unlock()
    }
  }

  /** The upload's length when all its bytes have arrived (its datastore's offset is its length), else null. */
  async function arrivedSize(uploadId: string): Promise<number | null> {
    const left = await (await tus.datastore()).getUpload(uploadId).catch(() => null)
    return left?.size !== undefined && left.offset === left.size ? left.size : null
  }

  // @tus/server and its store are loaded by the first upload request, not by every web node at start (decision 0165).
  const server = onFirstUse(
    async () =>
      new (await import('@tus/server')).Server({
        path: TUS_PATH,
        datastore: await tus.datastore(),
        locker,
        // "/api/uploads/tus/<id>": resolved against the page's origin, whatever proxy stands in front.
        relativeLocation: true,
        maxSize: CREATOR_VIDEO_MAX_BYTES,
        // Same-origin only: no CORS headers for other sites.
        allowedOrigins: () => false,
        async onUploadCreate(req, upload) {
          try {
            const { userId, metadata } = sender(req)
            if (!metadata) throw { status_code: 400, body: UPLOAD_METADATA_MESSAGES.invalid }
            const started = { userId, uploadId: upload.id, sizeBytes: upload.size ?? -1, fileName: metadata.filename }
            if (metadata.purpose === 'application') {
              await startApplicationVideoUpload(db, started)
              return {}
            }
            // For a course: whoever may edit its curriculum, counted against its owner's plan (decision 0138).
            await startVideoUpload(db, { ...started, courseId: metadata.courseId ?? null }, config.creatorLimits)
          } catch (error) {
            throw tusRefusal(error)
          }
          return {}
        },
        async onUploadFinish(req, upload) {
          try {
            const finished = await finishUpload(userOf(req), upload.id, upload.size ?? upload.offset)
            return { headers: { 'Upload-Duration-Seconds': finished.durationSeconds } }
          } catch (error) {
            throw tusRefusal(error)
          }
        },
        onResponseError(req, error) {
          if ('status_code' in error && error.status_code < 500) return undefined
          const unavailable = unavailableSentence(error)
          if (unavailable) {
            app.log.warn({ err: error, url: req.url }, 'tus upload waits for a dependency')
            // tus writes its own headers over the raw response's: the ones set on it before are kept.
            req.runtime?.node?.res?.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
            return { status_code: 503, body: unavailable }
          }
          app.log.error({ err: error, url: req.url }, 'tus upload failed')
          return { status_code: 500, body: TUS_MESSAGES.failed }
        },
      }),
  )

  const answer = (reply: FastifyReply, status: number, message: string, headers: Record<string, string> = {}) =>
    reply
      .code(status)
      .headers({ 'Tus-Resumable': TUS_VERSION, 'Cache-Control': 'no-store', ...headers })
      .type('text/plain; charset=utf-8')
      .send(status === 204 || status === 200 ? '' : message)

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const method = request.method
    if (method === 'OPTIONS') {
      const tusServer = await server()
      reply.hijack()
      return tusServer.handle(request.raw, reply.raw)
    }
    // Finished videos are read through the lesson routes (http/lesson-media.ts), never here.
    if (method === 'GET') return answer(reply, 404, VIDEO_UPLOAD_MESSAGES.notFound)
    const { user } = await deps.resolveSession(request, reply)
    if (!user) return answer(reply, 401, TUS_MESSAGES.signIn)

    let metadata: TusUploadMetadata | undefined
    if (method === 'POST') {
      if (request.url.split('?')[0] !== TUS_PATH) return answer(reply, 404, VIDEO_UPLOAD_MESSAGES.notFound)
      // The length is known up front (no Upload-Defer-Length): it is checked against 4 GB and the plan now.
      const length = request.headers['upload-length']
      if (typeof length !== 'string' || !/^\d{1,16}$/.test(length) || request.headers['upload-defer-length']) {
        return answer(reply, 400, TUS_MESSAGES.deferred)
      }
      const said = uploadMetadataOf(request.headers['upload-metadata'])
      if (!said.ok) return answer(reply, 400, said.message)
      metadata = said.metadata
      if (metadata.purpose === 'application' && Number(length) > APPLICATION_VIDEO_MAX_BYTES) {
        return answer(reply, 413, VIDEO_UPLOAD_MESSAGES.applicationTooLarge)
      }
      if (Number(length) > CREATOR_VIDEO_MAX_BYTES) return answer(reply, 413, VIDEO_UPLOAD_MESSAGES.tooLarge)
      const hit = await hitUnlessDown(limiter, `tus-create:${user.id}`, TUS_CREATE_RULE.windowMs, (error) =>
        request.log.warn({ err: error }, 'rate limiter unavailable; upload allowed'),
      )
      if (hit && hit.count > TUS_CREATE_RULE.max) return answer(reply, 429, TUS_MESSAGES.tooMany)
    } else {
      const id = uploadIdOf(request.url)
      const upload = id ? await findUpload(db, id) : null
      if (!id || !upload || upload.userId !== user.id || upload.status === 'released') {
        return answer(reply, 404, VIDEO_UPLOAD_MESSAGES.notFound)
      }
      if (upload.status === 'stored') {
        // Finished (its bytes moved into storage): a client resuming after a reload learns it is complete.
        if (method === 'HEAD') {
          const size = String(upload.sizeBytes)
          return answer(reply, 200, '', { 'Upload-Offset': size, 'Upload-Length': size })
        }
        if (method === 'DELETE') {
          // A finished sample video may already go with an application: it stays (unused ones are swept).
          if (upload.purpose === 'application') return answer(reply, 409, TUS_MESSAGES.finished)
          if (upload.lessonId) return answer(reply, 409, TUS_MESSAGES.inUse)
          await releaseVideoUpload(db, storage, user.id, id)
          return answer(reply, 204, '')
        }
        return answer(reply, 409, TUS_MESSAGES.finished)
      }
      if (method === 'DELETE') {
        await cancelVideoUpload(db, tus, id)
        return answer(reply, 204, '')
      }
      // Checked first without the lock: a HEAD resuming a partial upload (the usual one) is tus's alone.
      if (method === 'HEAD' && (await arrivedSize(id)) !== null) {
        // All its bytes came but storing them failed (storage down as the last PATCH ended: 503), and the client
        // retries with a HEAD: the finish is tried again, so the upload is stored once storage is back; until then a
        // 503 again (retried later), never an offset saying "complete" for bytes that were not stored.
        let finished: Awaited<ReturnType<typeof finishUpload>>
        try {
          finished = await finishUpload(user.id, id, null)
        } catch (error) {
          if (isDomainError(error)) return answer(reply, tusStatusOf(error.kind, error.message), error.message)
          const unavailable = unavailableSentence(error)
          if (unavailable) {
            request.log.warn({ err: error, url: request.url }, 'tus upload waits for a dependency')
            return answer(reply, 503, unavailable, { 'Retry-After': String(RETRY_AFTER_SECONDS) })
          }
          request.log.error({ err: error, url: request.url }, 'tus upload failed')
          return answer(reply, 500, TUS_MESSAGES.failed)
        }
        if (finished) {
          const size = String(upload.sizeBytes)
          return answer(reply, 200, '', { 'Upload-Offset': size, 'Upload-Length': size })
        }
      }
    }
    senderOf.set(request.raw, { userId: user.id, metadata })
    const tusServer = await server()
    reply.hijack()
    await tusServer.handle(request.raw, reply.raw)
  }

  app.register(async (scope) => {
    // The bytes of a PATCH (application/offset+octet-stream) stay in the request stream for tus to read.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null))
    for (const url of [TUS_PATH, `${TUS_PATH}/*`]) {
      scope.route({
        method: ['OPTIONS', 'GET', 'POST', 'HEAD', 'PATCH', 'DELETE'],
        url,
        exposeHeadRoute: false,
        handler: handle,
      })
    }
  })
}
