// Creators for the upload tests (integration and end-to-end): an approved creator (instructor profile and creators
// row, as an approval makes them) holding a creator plan bought as the shop sells it, or none; and a tus client
// speaking the protocol with plain fetch.
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { SESSION_COOKIE } from '../../src-server/auth/session.ts'
import { buyPlan } from './creator-courses.ts'
import { createSessionToken, createUser, type TestUser } from './factories.ts'
import { approveCreator } from './studio.ts'

/** Makes the account a creator, as an approved application does. */
export function makeCreator(db: Kysely<Database>, user: TestUser): Promise<void> {
  return approveCreator(db, user.id, `${user.firstName} ${user.lastName}`)
}

export { buyPlan }

/** A signed-in creator (with `plan`, or none) and the cookie of their session. */
export async function creatorWithPlan(db: Kysely<Database>, plan: 'basic' | 'pro' | 'enterprise' | null = 'basic') {
  const user = await createUser(db)
  await makeCreator(db, user)
  if (plan) await buyPlan(db, user, plan)
  const { token } = await createSessionToken(db, user.id)
  return { user, cookie: `${SESSION_COOKIE}=${token}` }
}

/** A tus 1.0 client over fetch, as a browser on the site's own origin sends it. */
export function tusClient(baseUrl: string, cookie: string, origin = 'http://storefront.test') {
  const headers = (extra: Record<string, string> = {}) => ({ 'Tus-Resumable': '1.0.0', cookie, origin, ...extra })
  const urlOf = (location: string) => new URL(location, `${baseUrl}/api/uploads/tus`).toString()
  return {
    create(length: number | null, fileName = 'lesson.mp4', extra: Record<string, string> = {}) {
      const metadata = `filename ${Buffer.from(fileName).toString('base64')},filetype ${Buffer.from('video/mp4').toString('base64')}`
      return fetch(`${baseUrl}/api/uploads/tus`, {
        method: 'POST',
        headers: headers({
          ...(length === null ? {} : { 'Upload-Length': String(length) }),
          'Upload-Metadata': metadata,
          ...extra,
        }),
      })
    },
    patch(location: string, offset: number, bytes: Uint8Array) {
      return fetch(urlOf(location), {
        method: 'PATCH',
        headers: headers({ 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }),
        body: new Uint8Array(bytes),
      })
    },
    head(location: string) {
      return fetch(urlOf(location), { method: 'HEAD', headers: headers() })
    },
    remove(location: string) {
      return fetch(urlOf(location), { method: 'DELETE', headers: headers() })
    },
  }
}

/** The upload id at the end of a tus Location ("/api/uploads/tus/<id>"). */
export const uploadIdOf = (location: string) => location.split('/').pop() as string
