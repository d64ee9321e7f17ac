// Forms the browser sends itself, before the page's JavaScript has arrived or without it (issue 27): sign-up, log-in
// (shop and admin) and its code step, the two password pages, the e-mail verification and address change links' pages and the contact
// form post to their page's own address. Each runs the very procedure the
// hydrated page calls through tRPC, in-process with the request's context (its session, address and limits), then
// redirects (303) or renders the page again with the answer (src-shared/native-form.ts). No rule lives here.
import { TRPCError } from '@trpc/server'
import { getHTTPStatusCodeFromError } from '@trpc/server/http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ZodError } from 'zod'
import { AUTH_MESSAGES, DELETION_CANCEL_PATH, safeReturnPath, TWO_FACTOR_SETUP_PATH } from '../../src-shared/auth.ts'
import {
  contactFields,
  type PostedFields as Fields,
  firstIssueByField,
  loginFields,
  type NativeFormResult,
  RESEND_VERIFICATION_INTENT,
  SECRET_FIELDS,
  signupFields,
  texts,
} from '../../src-shared/native-form.ts'
import { OUTAGE } from '../../src-shared/outage.ts'
import { isDomainError } from '../kernel/errors.ts'
import type { createCaller } from '../routers/_app.ts'
import type { RenderPostedPage } from './client.ts'

type Caller = ReturnType<typeof createCaller>
type Outcome = { redirect: string } | { done: string }

interface NativeForm {
  path: string
  /** What the page says when the server failed for a reason the user cannot act on. */
  fallbackError: string
  /** Secret fields this page is given back when refused: a token its first render already held (never a password). */
  keep?: readonly (typeof SECRET_FIELDS)[number][]
  run(caller: Caller, fields: Fields, request: FastifyRequest): Promise<Outcome>
}

const GENERIC_ERROR = 'An error occurred. Please try again.'

const FORMS: NativeForm[] = [
  {
    path: '/login',
    fallbackError: AUTH_MESSAGES.loginError,
    async run(caller, fields, request) {
      const result = await caller.auth.login(loginFields(fields))
      const back = safeReturnPath((request.query as { redirect?: unknown }).redirect)
      if (result && 'twoFactor' in result) return { redirect: `/two-factor?redirect=${encodeURIComponent(back)}` }
      // An account waiting out its deletion's cool-off goes where the script's log-in sends it: Cancel deletion.
      if (result?.deletionScheduledFor) return { redirect: DELETION_CANCEL_PATH }
      return { redirect: back }
    },
  },
  {
    path: '/two-factor',
    fallbackError: AUTH_MESSAGES.loginError,
    async run(caller, fields, request) {
      const user = await caller.auth.verifyTwoFactor({ code: fields.code ?? '' })
      if (user?.deletionScheduledFor) return { redirect: DELETION_CANCEL_PATH }
      return { redirect: safeReturnPath((request.query as { redirect?: unknown }).redirect) }
    },
  },
  {
    path: '/admin/login',
    fallbackError: 'An error occurred during login.',
    async run(caller, fields, request) {
      const result = await caller.admin.session.login(texts(fields, ['email', 'password']))
      const asked = safeReturnPath((request.query as { redirect?: unknown }).redirect, '/admin')
      const back = asked.startsWith('/admin') ? asked : '/admin'
      if (result.twoFactor) return { redirect: `/two-factor?redirect=${encodeURIComponent(back)}` }
      if (result.mustEnrolTwoFactor) return { redirect: TWO_FACTOR_SETUP_PATH }
      return { redirect: back }
    },
  },
  {
    path: '/signup',
    fallbackError: AUTH_MESSAGES.signupFailed,
    async run(caller, fields) {
      const { message } = await caller.auth.signup(signupFields(fields))
      return { done: message }
    },
  },
  {
    path: '/forgot-password',
    fallbackError: GENERIC_ERROR,
    async run(caller, fields) {
      return { done: (await caller.auth.requestPasswordReset({ email: fields.email ?? '' })).message }
    },
  },
  {
    path: '/reset-password',
    fallbackError: GENERIC_ERROR,
    async run(caller, fields) {
      const password = fields.password ?? ''
      if (password !== fields.confirm) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: AUTH_MESSAGES.passwordMismatch })
      }
      return { done: (await caller.auth.resetPassword({ token: fields.token ?? '', password })).message }
    },
  },
  {
    // Without JavaScript the verification link's page cannot check its token itself: its button posts it here. The
    // 'Resend verification e-mail' form (this page's and the log-in page's) posts here too, marked intent=resend.
    path: '/verify-email',
    fallbackError: GENERIC_ERROR,
    // Asked for the sign-up's password (decision 0134), the page posts the link's token again with it.
    keep: ['token'],
    async run(caller, fields) {
      if (fields.intent === RESEND_VERIFICATION_INTENT) {
        return { done: (await caller.auth.resendVerification({ email: fields.email ?? '' })).message }
      }
      const password = fields.password || undefined
      return { done: (await caller.auth.verifyEmail({ token: fields.token ?? '', password })).message }
    },
  },
  {
    // The new-address link's page (decision 0157): without JavaScript its button posts the token here.
    path: '/change-email',
    fallbackError: GENERIC_ERROR,
    async run(caller, fields) {
      return { done: (await caller.profile.confirmEmailChange({ token: fields.token ?? '' })).message }
    },
  },
  {
    path: '/contact',
    fallbackError: GENERIC_ERROR,
    async run(caller, fields) {
      const { message } = await caller.contact.send(contactFields(fields))
      return { done: message }
    },
  },
]

/** The pages whose form the server answers itself (tests check each such form posts and reads its result). */
export const NATIVE_FORM_PAGES = FORMS.map((form) => form.path)

/** A refused or failed call told as the page tells it: field messages, or one message for the form. */
function failure(form: NativeForm, fields: Fields, error: unknown): { status: number; result: NativeFormResult } {
  const trpcError = error instanceof TRPCError ? error : null
  const status = trpcError ? getHTTPStatusCodeFromError(trpcError) : 500
  const secret = (name: string) =>
    (SECRET_FIELDS as readonly string[]).includes(name) && !(form.keep as readonly string[] | undefined)?.includes(name)
  const values = Object.fromEntries(Object.entries(fields).filter(([name]) => !secret(name)))
  const result: NativeFormResult = { form: form.path, values, fieldErrors: {} }
  const cause = trpcError?.cause
  if (cause instanceof ZodError) result.fieldErrors = firstIssueByField(cause.issues)
  else if (isDomainError(cause) && cause.field) result.fieldErrors = { [cause.field]: cause.message }
  else if (status === 503) result.formError = OUTAGE.message
  else if (status >= 500) result.formError = form.fallbackError
  else result.formError = trpcError?.message || form.fallbackError
  // A member held to a school's single sign-on: the page offers that school's sign-in button with the message.
  if (isDomainError(cause) && cause.ssoSchool) result.ssoSchool = cause.ssoSchool
  return { status, result }
}

/** The fields of a urlencoded body; a repeated name keeps its last value, as the page's FormData reads do. */
function parseFields(body: string): Fields {
  return Object.fromEntries(new URLSearchParams(body))
}

export interface NativeFormDeps {
  /** A caller of the app's procedures with the context /trpc would build for this request. */
  callerFor(request: FastifyRequest, reply: FastifyReply): Promise<Caller>
  /** The server renderer (null without a built client: a failed post then goes back to its page). */
  renderPage: RenderPostedPage | null
}

export async function registerNativeForms(app: FastifyInstance, deps: NativeFormDeps) {
  await app.register(async (scope) => {
    // What a browser's form sends, and only that (415 otherwise); small (a contact message is 5,000 characters).
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, parseFields(body as string)),
    )
    for (const form of FORMS) {
      scope.post(form.path, async (request, reply) => {
        const fields = (request.body ?? {}) as Fields
        let status = 200
        let result: NativeFormResult
        try {
          const outcome = await form.run(await deps.callerFor(request, reply), fields, request)
          if ('redirect' in outcome) return reply.redirect(outcome.redirect, 303)
          result = { form: form.path, values: {}, fieldErrors: {}, done: outcome.done }
        } catch (error) {
          ;({ status, result } = failure(form, fields, error))
          if (status >= 500 && status !== 503) request.log.error({ err: error, form: form.path }, 'native form failed')
        }
        if (deps.renderPage && (await deps.renderPage(request, reply, status, result))) return reply
        return reply.redirect(request.url, 303)
      })
    }
  })
}
