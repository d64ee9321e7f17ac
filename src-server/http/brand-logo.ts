// POST /api/studio/brand-logo: a white-labelled school's logo (decision 0063) — one image judged by its bytes, at most
// 2 MB, stored like an avatar; only the school's owner on a plan with white label (the flow checks both).
import type { FastifyInstance } from 'fastify'
import { AVATAR_MAX_BYTES } from '../../src-shared/constants.ts'
import { requireUser } from '../auth/require-user.ts'
import { setSchoolBrandLogo } from '../flows/school-domain.ts'
import * as clock from '../kernel/clock.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { UPLOAD_ROUTE_LIMIT } from '../security/rate-limit.ts'
import { UPLOAD_PREFIXES } from '../storage/keys.ts'
import { readImageUpload, sendUploadRefusal } from '../storage/upload.ts'

const TOO_LARGE = 'The logo must be 2 MB or smaller'

export function registerBrandLogoRoutes(app: FastifyInstance, deps: HttpDeps) {
  app.post('/api/studio/brand-logo', { config: UPLOAD_ROUTE_LIMIT }, async (request, reply) => {
    const user = await requireUser(deps, request, reply)
    if (!user) return reply
    let image: Awaited<ReturnType<typeof readImageUpload>>
    try {
      image = await readImageUpload(request, AVATAR_MAX_BYTES, TOO_LARGE)
    } catch (error) {
      return sendUploadRefusal(request, reply, error, 'brand logo upload')
    }
    const key = `${UPLOAD_PREFIXES.brandLogos}${user.id}/logo-${clock.nowMs().toString(36)}.${image.type.ext}`
    const url = await deps.storage.put(key, image.data, image.type.mime)
    let previous: string | null
    try {
      previous = await setSchoolBrandLogo(deps.db, user.id, url)
    } catch (error) {
      await deps.storage.remove(key).catch(() => undefined)
      throw error
    }
    const oldKey = previous ? deps.storage.keyFromUrl(previous) : null
    if (oldKey && oldKey !== key) {
      await deps.storage
        .remove(oldKey)
        .catch((err: unknown) => request.log.warn({ err, oldKey }, 'old logo not removed'))
    }
    return { url, message: 'Logo saved' }
  })
}
