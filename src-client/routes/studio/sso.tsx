// /studio/sso: the owner's single sign-on with OpenID Connect (decision 0062) — the provider's issuer, client id and
// secret (write-only: the server never sends it back), the e-mail domains it signs in, and whether the school's
// members must use it. The server checks the owner and the Enterprise plan on every call; this page shows answers.
// "Remove single sign-on" (once confirmed) deletes the settings, the secret and the domains' proofs (decision 0144).
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { SsoDomainProofs } from '#client/components/studio/SsoDomainProofs.tsx'
import { SchoolAddress, StudioPage } from '#client/components/studio/StudioPage.tsx'
import { button } from '#client/components/ui/button.ts'
import { useSubmitForm } from '#client/components/ui/field-errors.tsx'
import { CheckboxField, FormAlert, TextAreaField, TextField } from '#client/components/ui/form.tsx'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { panel as card } from '#client/components/ui/panel.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { Spinner } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/studio/sso')({
  loader: async ({ context }) => {
    await Promise.all([
      context.queryClient.ensureQueryData(context.trpc.schoolSso.mine.queryOptions()),
      context.queryClient.prefetchQuery(context.trpc.schoolSso.domainProofs.queryOptions()),
    ])
  },
  head: () => ({ meta: [{ title: 'Single sign-on | SkillForge Studio' }] }),
  errorComponent: routeError('Could not load your single sign-on settings'),
  component: SsoPage,
})

const FIELDS = ['issuer', 'clientId', 'clientSecret', 'domains'] as const

function SsoPage() {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const { data: panel } = useSuspenseQuery(trpc.schoolSso.mine.queryOptions())
  const save = useMutation(trpc.schoolSso.save.mutationOptions())
  const settings = panel.settings
  const form = useSubmitForm({
    fields: FIELDS,
    read: (data) => ({
      issuer: String(data.get('issuer') ?? ''),
      clientId: String(data.get('clientId') ?? ''),
      clientSecret: String(data.get('clientSecret') ?? ''),
      domains: String(data.get('domains') ?? ''),
      enabled: data.get('enabled') === 'on',
      requireForMembers: data.get('requireForMembers') === 'on',
    }),
    send: async (input, element) => {
      await save.mutateAsync(input)
      await queryClient.invalidateQueries({ queryKey: trpc.schoolSso.pathKey() })
      // The secret is write-only: the field empties once it is saved.
      const secret = element.elements.namedItem('clientSecret')
      if (secret instanceof HTMLInputElement) secret.value = ''
    },
    done: 'Single sign-on saved',
  })

  return (
    <StudioPage
      title="Single sign-on"
      intro={
        <>
          Learners of {panel.school.name} sign in with their company identity (OpenID Connect) from{' '}
          <SchoolAddress slug={panel.school.slug} />.
        </>
      }
      introNamesAddress
    >
      {panel.planIncludesSso ? null : (
        <FormAlert>
          Single sign-on comes with the Enterprise plan (yours: {panel.planName ?? 'none'}).{' '}
          <Link to="/pricing" className={css({ textDecoration: 'underline' })}>
            See Pricing
          </Link>
        </FormAlert>
      )}
      <TitledSection id="register-heading" title="At your identity provider" className={card}>
        <p>Register a web application (authorization code flow) with this redirect URI:</p>
        <code data-testid="sso-redirect-uri" className={css({ overflowWrap: 'anywhere', fontSize: 'sm' })}>
          {panel.redirectUri}
        </code>
        {panel.domainRedirectUri ? (
          <>
            <p>and, for learners who sign in on your own domain, this one too:</p>
            <code data-testid="sso-domain-redirect-uri" className={css({ overflowWrap: 'anywhere', fontSize: 'sm' })}>
              {panel.domainRedirectUri}
            </code>
          </>
        ) : null}
      </TitledSection>
      {/* Drawn anew once the settings are removed: its fields hold their first values. */}
      <form
        key={settings ? 'saved' : 'none'}
        {...SCRIPT_ONLY_FORM}
        {...form.formProps}
        aria-labelledby="sso-heading"
        className={card}
      >
        <h2 id="sso-heading" className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
          Your provider
        </h2>
        <FormAlert>{form.formError}</FormAlert>
        <TextField
          label="Issuer URL"
          name="issuer"
          type="url"
          required
          maxLength={300}
          defaultValue={settings?.issuer ?? ''}
          hint="For example https://login.example.com (its /.well-known/openid-configuration is read)."
          error={form.errors.issuer}
        />
        <TextField
          label="Client id"
          name="clientId"
          required
          maxLength={300}
          defaultValue={settings?.clientId ?? ''}
          error={form.errors.clientId}
        />
        <TextField
          label="Client secret"
          name="clientSecret"
          type="password"
          autoComplete="off"
          maxLength={500}
          required={!settings?.hasClientSecret}
          hint={settings?.hasClientSecret ? 'A secret is stored. Leave empty to keep it.' : undefined}
          error={form.errors.clientSecret}
        />
        <TextAreaField
          label="Allowed e-mail domains"
          name="domains"
          required
          rows={2}
          defaultValue={settings?.domains.join(', ') ?? ''}
          hint="Comma-separated, such as example.com. Only verified addresses at these domains sign in; new learners join, and existing accounts are linked, only once their domain is proven below."
          error={form.errors.domains}
        />
        <CheckboxField
          label="Offer “Sign in with your school”"
          name="enabled"
          defaultChecked={settings?.enabled ?? true}
        />
        <CheckboxField
          label="Require single sign-on for the school’s team members (no password log-in)"
          name="requireForMembers"
          defaultChecked={settings?.requireForMembers ?? false}
        />
        <button type="submit" className={button({})} {...submitWhilePending(save.isPending || !panel.planIncludesSso)}>
          {save.isPending ? <Spinner label="Saving" /> : null}
          {save.isPending ? 'Saving…' : 'Save single sign-on'}
        </button>
      </form>
      <TitledSection id="sso-domains-heading" title="Prove your e-mail domains" className={card}>
        <p>
          New learners join through your sign-in, and someone who already has an account here is linked to it, only when
          you prove you run their address’s domain. Publish each TXT record at your DNS provider, then check it. Each
          domain is proven on its own: a verified domain proves nothing for the domains above or below it.
        </p>
        <SsoDomainProofs canCheck={panel.planIncludesSso} />
      </TitledSection>
      {settings ? <RemoveSso schoolName={panel.school.name} /> : null}
    </StudioPage>
  )
}

/** Takes the school's single sign-on away altogether (unticking "Offer" only pauses it and keeps the secret). */
function RemoveSso({ schoolName }: { schoolName: string }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const [confirming, setConfirming] = useState(false)
  const remove = useMutation(
    trpc.schoolSso.remove.mutationOptions({
      onSuccess: async () => {
        setConfirming(false)
        await queryClient.invalidateQueries({ queryKey: trpc.schoolSso.pathKey() })
        notify('success', 'Single sign-on removed')
      },
      onError: (error) => notifyError(error),
    }),
  )
  return (
    <TitledSection id="sso-remove-heading" title="Remove single sign-on" className={card}>
      <p>
        Deletes the provider’s settings and its client secret, and the proofs of your e-mail domains (another school may
        then prove them). Nobody is held to your sign-in any more; sessions and accounts stay as they are.
      </p>
      <div>
        <button type="button" className={button({ variant: 'outline' })} onClick={() => setConfirming(true)}>
          Remove single sign-on
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Remove single sign-on?"
        description={`Learners can no longer sign in with ${schoolName}’s provider; those who joined through it sign in with a password they set through “Forgot password”. Your team members sign in as anyone else. To offer it again, set the provider up and prove your domains anew.`}
        confirmLabel="Remove"
        pendingLabel="Removing…"
        pending={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => remove.mutate()}
      />
    </TitledSection>
  )
}
