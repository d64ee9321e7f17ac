// A browser for the sign-up tests over real HTTP (decision 0134): it keeps the cookies the server sets and sends them
// back, as a browser does, so the signup_browser cookie follows its own sign-ups; each has its own client address.
import type { DB } from '../../src-server/kernel/db.ts'
import { cookiePair, trpcPost } from './http.ts'
import { mailsTo } from './outbox.ts'

export function signupBrowser(site: { baseUrl: string }, clientIp: string) {
  const cookies = new Map<string, string>()
  return {
    cookies,
    async call(procedure: string, input: unknown) {
      const cookie = [...cookies.values()].join('; ')
      const response = await trpcPost(site.baseUrl, procedure, input, {
        'x-forwarded-for': clientIp,
        ...(cookie ? { cookie } : {}),
      })
      for (const line of response.headers.getSetCookie()) {
        const pair = cookiePair(line)
        cookies.set(pair.split('=')[0]!, pair)
      }
      const body = (await response.json()) as { result?: { data: unknown }; error?: { message: string } }
      return { status: response.status, data: body.result?.data, error: body.error?.message, response }
    },
  }
}

export const signupFields = (email: string, password: string, firstName = 'Ada') => ({
  firstName,
  lastName: 'Lovelace',
  email,
  password,
  acceptTerms: true,
})

/** The verification links mailed to `email`, oldest first. */
export async function verificationLinksTo(db: DB, email: string) {
  const mails = (await mailsTo(db, email)).filter((mail) => mail.kind === 'verify_email')
  return mails.map((mail) => /\/verify-email\?token=([a-z0-9]+)/.exec(mail.text_body)![1]!)
}

export const accountOf = (db: DB, email: string) =>
  db.selectFrom('users').select(['email_verified', 'first_name']).where('email', '=', email).executeTakeFirstOrThrow()
