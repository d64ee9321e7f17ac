// /account/sso-link: a school's sign-in named an account that exists already, which the school may not claim on its
// provider's word (decision 0062). Its owner, signed in here, links it with a fresh proof, or not. The sign-in waits
// 10 minutes, for this browser session only; the server checks everything again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, Link, useRouter } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import {
  type ConfirmMethod,
  ProofFields,
  proofFromForm,
  usePrivacyCode,
} from '#client/components/account/ProofFields.tsx'
import { SectionCard } from '#client/components/account/SectionCard.tsx'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { button } from '#client/components/ui/button.ts'
import { FormAlert } from '#client/components/ui/form.tsx'
import { Container } from '#client/components/ui/layout.tsx'
import { EmptyState, ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import { errorMessage } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { actionProofInput } from '#shared/schemas/privacy.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/_auth/account_/sso-link')({
  loader: ({ context: { queryClient, trpc } }) => queryClient.prefetchQuery(trpc.schoolSso.pendingLink.queryOptions()),
  head: () => ({ meta: [{ title: 'Link a school sign-in | SkillForge' }] }),
  component: SsoLinkPage,
})

const stack = css({ display: 'flex', flexDir: 'column', gap: '4', maxW: 'xl' })
const actions = css({ display: 'flex', flexWrap: 'wrap', gap: '3' })
const underline = css({ textDecoration: 'underline' })
const warning = css({ borderLeftWidth: '4px', borderColor: 'warning', bg: 'canvas', p: '3', fontSize: 'sm' })

function SsoLinkPage() {
  const trpc = useTRPC()
  const pending = useQuery(trpc.schoolSso.pendingLink.queryOptions())
  return (
    <main>
      <PageIntro title="Link a school sign-in">
        <p>
          Sign in with your school or company account from now on.{' '}
          <Link to="/account/security" className={underline}>
            Security settings
          </Link>
        </p>
      </PageIntro>
      <Container className={css({ py: '10' })}>
        {pending.isPending ? (
          <LoadingState label="Loading the sign-in to link…" />
        ) : pending.isError ? (
          <ErrorState title="Could not load this" error={pending.error} onRetry={() => pending.refetch()} />
        ) : pending.data ? (
          <ConsentCard {...pending.data} />
        ) : (
          <EmptyState title="Nothing is waiting to be linked">
            <p>
              A school’s sign-in waits here for 10 minutes after you use it while signed in. Use “Sign in with …” on the
              school’s page again to link it.
            </p>
          </EmptyState>
        )}
      </Container>
    </main>
  )
}

function ConsentCard({ schoolName, email, confirm }: { schoolName: string; email: string; confirm: ConfirmMethod }) {
  const trpc = useTRPC()
  const router = useRouter()
  const queryClient = useQueryClient()
  const [error, setError] = useState<string | null>(null)
  const code = usePrivacyCode('link-school-sign-in')
  const link = useMutation(trpc.schoolSso.confirmLink.mutationOptions())
  const cancel = useMutation(trpc.schoolSso.cancelLink.mutationOptions())
  const busy = link.isPending || cancel.isPending

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = actionProofInput.safeParse(proofFromForm(new FormData(event.currentTarget)))
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please check the form')
    setError(null)
    try {
      const linked = await link.mutateAsync(parsed.data)
      notify('success', `Linked to ${linked.schoolName}’s sign-in`, 'We sent you an e-mail about it.')
      await queryClient.invalidateQueries({ queryKey: trpc.schoolSso.pathKey() })
      await router.navigate({ href: linked.redirect })
    } catch (caught) {
      setError(errorMessage(caught, 'An error occurred. Please try again.'))
    }
  }

  async function onCancel() {
    try {
      await cancel.mutateAsync()
      notify('success', 'Not linked', `${schoolName}’s sign-in was not linked to your account.`)
      await router.navigate({ to: '/account/security' })
    } catch (caught) {
      notify('error', 'Could not cancel', errorMessage(caught))
    }
  }

  return (
    <SectionCard title={`Link ${schoolName}’s sign-in to your account?`}>
      <div className={stack}>
        <p>
          {schoolName}’s sign-in says you are <strong>{email}</strong>, the address of your SkillForge account. Linked,
          it signs you in here without your password.
        </p>
        <p className={warning}>
          {schoolName}’s administrators run that sign-in, so once it is linked they can sign in to your account too:
          your courses, purchases and, if you teach, your studio. Link it only if you trust {schoolName} with that. You
          can unlink it at any time under Security.
        </p>
        <form {...SCRIPT_ONLY_FORM} onSubmit={onSubmit} noValidate className={stack} aria-label="Link this sign-in">
          <FormAlert>{error}</FormAlert>
          <ProofFields confirm={confirm} {...code.fields} />
          <div className={actions}>
            <button type="submit" className={button()} {...submitWhilePending(busy)}>
              {link.isPending ? 'Linking…' : 'Link my account'}
            </button>
            <button
              type="button"
              className={button({ variant: 'outline' })}
              {...whilePending(busy, 'onClick', () => void onCancel())}
            >
              {cancel.isPending ? 'Cancelling…' : 'Don’t link'}
            </button>
          </div>
        </form>
      </div>
    </SectionCard>
  )
}
