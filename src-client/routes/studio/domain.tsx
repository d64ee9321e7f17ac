// /studio/domain: the owner's own domain and white-label brand (decision 0063). Add a hostname, create the TXT record
// shown, press "Check now" (a verified domain is re-checked and lapses when its record is gone for a day: its state,
// the reason and the record to publish again are shown); the brand (name and colour) replaces SkillForge's on the school's pages, mails and
// certificates. Remove domain and Remove brand take either off again, each asked first (decision 0143). The server
// checks the owner and the plan on every call; this page only shows the answers.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { type ChangeEvent, useState } from 'react'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { StudioPage } from '#client/components/studio/StudioPage.tsx'
import { button } from '#client/components/ui/button.ts'
import { codeBlock } from '#client/components/ui/code.ts'
import { useSubmitForm } from '#client/components/ui/field-errors.tsx'
import { FormAlert, TextField } from '#client/components/ui/form.tsx'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { panel as card, panelHeading as heading } from '#client/components/ui/panel.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { Spinner } from '#client/components/ui/states.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import { uploadImage } from '#client/components/ui/upload-image.ts'
import { errorMessage } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { pickWhilePending, submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { addDomainInput, schoolBrandInput } from '#shared/schemas/domains.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/studio/domain')({
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.domains.mine.queryOptions()),
  head: () => ({ meta: [{ title: 'Domain and brand | SkillForge Studio' }] }),
  errorComponent: routeError('Could not load your domain'),
  component: DomainPage,
})

function DomainPage() {
  const { trpc } = Route.useRouteContext()
  const { data: panel } = useSuspenseQuery(trpc.domains.mine.queryOptions())
  return (
    <StudioPage
      title="Domain and brand"
      intro={<>Serve {panel.school.name} on your own domain and show your brand instead of ours.</>}
    >
      <TitledSection id="domain-heading" title="Your domain" className={card} titleClassName={heading}>
        {panel.customDomainAllowed ? (
          <>
            {panel.domain ? <DomainState domain={panel.domain} /> : null}
            <DomainForm key={panel.domain?.hostname ?? ''} current={panel.domain?.hostname ?? ''} />
          </>
        ) : (
          <p>A custom domain comes with the Pro or Enterprise plan: see Pricing.</p>
        )}
        {/* Removing is always the owner's to do, with or without the plan (a lapsed plan's domain included). */}
        {panel.domain ? <RemoveDomain hostname={panel.domain.hostname} /> : null}
      </TitledSection>
      <TitledSection id="brand-heading" title="Brand" className={card} titleClassName={heading}>
        {panel.whiteLabelAllowed ? (
          <>
            <BrandForm key={panel.brand ? 'saved' : 'none'} brand={panel.brand} fallbackName={panel.school.name} />
            {panel.brand ? <LogoField logoUrl={panel.brand.logoUrl} /> : null}
          </>
        ) : (
          <p>White-label branding comes with the Enterprise plan: see Pricing.</p>
        )}
        {panel.brand ? <RemoveBrand name={panel.brand.displayName} /> : null}
      </TitledSection>
    </StudioPage>
  )
}

type DomainStatus = 'verified' | 'failing' | 'lapsed' | 'unchecked' | 'missing' | 'mismatch' | 'failed'

type Domain = {
  hostname: string
  recordName: string
  recordValue: string
  status: DomainStatus
  /** The server's words for the status: why, and what to do. */
  message: string
}

const STATE: Record<DomainStatus, string> = {
  verified: 'Verified',
  failing: 'Verified, record missing',
  lapsed: 'Verification lapsed',
  unchecked: 'Waiting for the TXT record',
  missing: 'Waiting for the TXT record',
  mismatch: 'Waiting for the TXT record',
  failed: 'Check failed',
}

/** The domain's state (re-checked: a verified domain whose record is gone for a day lapses; decision 0063). */
function DomainState({ domain }: { domain: Domain }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const [failure, setFailure] = useState<string | null>(null)
  const check = useMutation(trpc.domains.check.mutationOptions())
  async function onCheck() {
    if (check.isPending) return
    setFailure(null)
    try {
      await check.mutateAsync()
      await queryClient.invalidateQueries({ queryKey: trpc.domains.mine.queryKey() })
    } catch (error) {
      setFailure(errorMessage(error))
    }
  }
  const verified = domain.status === 'verified'
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '3' })}>
      <p>
        <strong className={css({ overflowWrap: 'anywhere' })}>{domain.hostname}</strong>:{' '}
        <span data-testid="domain-state">{STATE[domain.status]}</span>
      </p>
      {verified ? (
        <p>
          Point the domain (a CNAME or A record) at this site; certificates are issued automatically on the first visit.
        </p>
      ) : (
        <div>
          <p>
            {domain.status === 'lapsed' ? 'Publish this TXT record again' : 'Create this TXT record'} at your DNS
            provider, then check:
          </p>
          <dl className={css({ display: 'grid', gap: '2', mt: '2' })}>
            <dt>Name</dt>
            <dd>
              <code className={codeBlock}>{domain.recordName}</code>
            </dd>
            <dt>Value</dt>
            <dd>
              <code className={codeBlock}>{domain.recordValue}</code>
            </dd>
          </dl>
        </div>
      )}
      <p role="status" aria-live="polite" data-testid="domain-message">
        {failure ?? domain.message}
      </p>
      <div>
        <button
          type="button"
          className={button({ variant: 'outline' })}
          {...whilePending(check.isPending, 'onClick', onCheck)}
        >
          {check.isPending ? <Spinner label="Checking" /> : null}
          {check.isPending ? 'Checking…' : 'Check now'}
        </button>
      </div>
    </div>
  )
}

function DomainForm({ current }: { current: string }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const add = useMutation(trpc.domains.add.mutationOptions())
  const form = useSubmitForm({
    fields: ['hostname'],
    schema: addDomainInput,
    read: (data) => ({ hostname: data.get('hostname') }),
    send: async (input) => {
      await add.mutateAsync(input)
      await queryClient.invalidateQueries({ queryKey: trpc.domains.mine.queryKey() })
    },
    done: 'Domain added: create the TXT record shown',
  })
  return (
    <form {...SCRIPT_ONLY_FORM} {...form.formProps} className={css({ display: 'grid', gap: '3' })}>
      <FormAlert>{form.formError}</FormAlert>
      <TextField
        label="Domain"
        name="hostname"
        required
        maxLength={253}
        defaultValue={current}
        hint="For example academy.example.com"
        error={form.errors.hostname}
      />
      <button type="submit" className={button({})} {...submitWhilePending(add.isPending)}>
        {add.isPending ? 'Saving…' : current ? 'Change domain' : 'Add domain'}
      </button>
    </form>
  )
}

function BrandForm({
  brand,
  fallbackName,
}: {
  brand: { displayName: string; brandColor: string; logoUrl: string | null } | null
  fallbackName: string
}) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const save = useMutation(trpc.domains.saveBrand.mutationOptions())
  const form = useSubmitForm({
    fields: ['displayName', 'brandColor'],
    schema: schoolBrandInput,
    read: (data) => ({ displayName: data.get('displayName'), brandColor: data.get('brandColor') }),
    send: async (input) => {
      await save.mutateAsync(input)
      await queryClient.invalidateQueries({ queryKey: trpc.domains.pathKey() })
    },
    done: 'Brand saved',
  })
  return (
    <form {...SCRIPT_ONLY_FORM} {...form.formProps} className={css({ display: 'grid', gap: '3' })}>
      <FormAlert>{form.formError}</FormAlert>
      <TextField
        label="Name shown"
        name="displayName"
        required
        maxLength={80}
        defaultValue={brand?.displayName ?? fallbackName}
        error={form.errors.displayName}
      />
      <TextField
        label="Brand colour"
        name="brandColor"
        required
        maxLength={7}
        defaultValue={brand?.brandColor ?? '#2663eb'}
        hint="As #rrggbb"
        error={form.errors.brandColor}
      />
      <button type="submit" className={button({})} {...submitWhilePending(save.isPending)}>
        {save.isPending ? 'Saving…' : 'Save brand'}
      </button>
    </form>
  )
}

function LogoField({ logoUrl }: { logoUrl: string | null }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const [uploading, setUploading] = useState(false)
  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    setUploading(true)
    try {
      const stored = await uploadImage('/api/studio/brand-logo', file, 'url')
      if (!stored) return
      await queryClient.invalidateQueries({ queryKey: trpc.domains.pathKey() })
      notify('success', 'Logo saved')
    } finally {
      setUploading(false)
    }
  }
  return (
    <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
      {logoUrl ? <img src={logoUrl} alt="Your logo" width={40} height={40} /> : null}
      <TextField
        label="Logo (an image under 2 MB)"
        type="file"
        accept="image/*"
        aria-busy={uploading}
        {...pickWhilePending(uploading, onFile)}
      />
      {uploading ? <Spinner label="Uploading" /> : null}
    </div>
  )
}

/** A removal asked for with a confirmation (ConfirmDialog), the button and its dialog; the panel is read again after. */
function RemoveWithConfirmation({
  label,
  title,
  description,
  pendingLabel,
  done,
  remove,
}: {
  label: string
  title: string
  description: string
  pendingLabel: string
  done: string
  remove: () => Promise<unknown>
}) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  const [pending, setPending] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  async function onConfirm() {
    if (pending) return
    setPending(true)
    setFailure(null)
    try {
      await remove()
      // The panel, and the brand the header and footer show (every domains.* answer).
      await queryClient.invalidateQueries({ queryKey: trpc.domains.pathKey() })
      setOpen(false)
      notify('success', done)
    } catch (error) {
      setFailure(errorMessage(error))
    } finally {
      setPending(false)
    }
  }
  return (
    <div className={css({ mt: '4', pt: '4', borderTopWidth: '1px', borderColor: 'line' })}>
      <button type="button" className={button({ variant: 'outline' })} onClick={() => setOpen(true)}>
        {label}
      </button>
      <ConfirmDialog
        open={open}
        title={title}
        description={description}
        confirmLabel={label}
        pendingLabel={pendingLabel}
        pending={pending}
        onConfirm={() => void onConfirm()}
        onCancel={() => {
          setOpen(false)
          setFailure(null)
        }}
      >
        <FormAlert>{failure}</FormAlert>
      </ConfirmDialog>
    </div>
  )
}

function RemoveDomain({ hostname }: { hostname: string }) {
  const { trpc } = Route.useRouteContext()
  const remove = useMutation(trpc.domains.remove.mutationOptions())
  return (
    <RemoveWithConfirmation
      label="Remove domain"
      title={`Remove ${hostname}?`}
      description={`Your school stops answering on ${hostname} at once, and learners signed in there are signed out. Your school's page stays on this site. To use the domain again, add it and publish a new TXT record.`}
      pendingLabel="Removing…"
      done="Domain removed"
      remove={() => remove.mutateAsync()}
    />
  )
}

function RemoveBrand({ name }: { name: string }) {
  const { trpc } = Route.useRouteContext()
  const remove = useMutation(trpc.domains.removeBrand.mutationOptions())
  return (
    <RemoveWithConfirmation
      label="Remove brand"
      title="Remove your brand?"
      description={`Your school's pages, mails and certificates stop showing “${name}”, its colour and logo, and show this site's name again. You can save a brand again later.`}
      pendingLabel="Removing…"
      done="Brand removed"
      remove={() => remove.mutateAsync()}
    />
  )
}
