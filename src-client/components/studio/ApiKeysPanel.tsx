// A school's API keys (decision 0060), shared by the owner's /studio/api and a finance member's
// /member/{schoolId}/api: create one (name, the scopes the caller's role allows, expiry, and a fresh proof — the
// password, an app code or an e-mailed code, decision 0131; its secret shown once with Copy), list the keys the caller may see (the owner every key of the school, a member only their own: name, prefix,
// scopes, last used, expiry, state) and revoke them, once the browser's confirm says so (decision 0141). The server checks the role, the key's holder and the owner's plan
// on every call (flows/school-api-keys.ts); this panel shows its answers.

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import {
  type ConfirmMethod,
  ProofFields,
  proofFromForm,
  usePrivacyCode,
} from '#client/components/account/ProofFields.tsx'
import { ShownOnce } from '#client/components/studio/ShownOnce.tsx'
import { button } from '#client/components/ui/button.ts'
import { useSubmitForm } from '#client/components/ui/field-errors.tsx'
import { CheckboxField, FormAlert, Options, SelectField, TextField } from '#client/components/ui/form.tsx'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { panel as card, panelHeading as heading } from '#client/components/ui/panel.ts'
import { EmptyState, Spinner } from '#client/components/ui/states.tsx'
import { reloadThenToast } from '#client/components/ui/toaster.tsx'
import { focusElement } from '#client/lib/focus.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { API_KEY_EXPIRY_DAYS, API_SCOPE_LABELS, API_SCOPES, type ApiScope } from '#shared/api-scopes.ts'
import { formatDate } from '#shared/dates.ts'
import { createApiKeyInput } from '#shared/schemas/api-keys.ts'
import { css, cx } from '#styled-system/css'

const when = (value: Date | string | null, none: string) => (value ? formatDate(value, 'mediumTime') : none)

/** The keys' panels under the page's own heading; `schoolId`: a member's school (absent: the owner's own). */
export function ApiKeysPanel({ schoolId }: { schoolId?: string }) {
  const trpc = useTRPC()
  const { data } = useSuspenseQuery(trpc.apiKeys.list.queryOptions(schoolId ? { schoolId } : undefined))
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null)
  if (!data.available) {
    return (
      <FormAlert kind="success">
        {data.message}{' '}
        {data.role === 'owner' ? <Link to="/pricing">Compare plans</Link> : 'The school’s owner chooses its plan.'}
      </FormAlert>
    )
  }
  return (
    <>
      {created ? (
        <ShownOnce
          key={created.key}
          id="new-key-heading"
          title={`Your new key “${created.name}”`}
          note="Copy it now: it is shown only once. We keep only a fingerprint of it."
          secret={created.key}
          copyLabel="Copy key"
          testId="new-api-key"
          onDone={() => {
            setCreated(null)
            // The panel (and the button pressed) goes: focus moves to the keys, where the new one is listed.
            focusElement(document.getElementById('keys-heading'))
          }}
        />
      ) : null}
      <CreateKeyForm
        schoolId={schoolId}
        allowedScopes={data.allowedScopes}
        confirm={data.confirm}
        onCreated={setCreated}
      />
      <KeyList schoolId={schoolId} keys={data.keys} />
    </>
  )
}

function CreateKeyForm({
  schoolId,
  allowedScopes,
  confirm,
  onCreated,
}: {
  schoolId?: string
  allowedScopes: readonly string[]
  confirm: ConfirmMethod
  onCreated: (key: { name: string; key: string }) => void
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const create = useMutation(trpc.apiKeys.create.mutationOptions())
  const code = usePrivacyCode('create-api-key')
  const { errors, formError, formProps } = useSubmitForm({
    fields: ['name', 'scopes', 'expiresInDays'],
    schema: createApiKeyInput,
    read: (form) => {
      const expiry = String(form.get('expiry') ?? '')
      return {
        ...(schoolId ? { schoolId } : {}),
        name: form.get('name'),
        scopes: form.getAll('scopes'),
        expiresInDays: expiry === 'never' ? null : Number(expiry),
        // A key outlives this session: the server asks who is making it (the password or a code).
        ...proofFromForm(form),
      }
    },
    send: async (input, form) => {
      const made = await create.mutateAsync(input)
      await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.pathKey() })
      form.reset()
      code.reset()
      onCreated({ name: made.name, key: made.key })
    },
  })
  return (
    <form {...SCRIPT_ONLY_FORM} {...formProps} aria-labelledby="create-key-heading" className={card}>
      <h2 id="create-key-heading" className={heading}>
        Create a key
      </h2>
      <FormAlert>{formError}</FormAlert>
      <TextField
        label="Key name"
        name="name"
        required
        maxLength={80}
        hint="Say where it is used."
        error={errors.name}
      />
      <fieldset aria-describedby={errors.scopes ? 'scopes-error' : undefined} aria-invalid={Boolean(errors.scopes)}>
        <legend className={css({ fontWeight: 'medium', fontSize: 'sm', mb: '2' })}>Scopes</legend>
        <div className={css({ display: 'grid', gap: '2', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' } })}>
          {API_SCOPES.filter((scope) => allowedScopes.includes(scope)).map((scope: ApiScope) => (
            <CheckboxField
              key={scope}
              name="scopes"
              value={scope}
              defaultChecked={scope.endsWith(':read')}
              label={API_SCOPE_LABELS[scope]}
            />
          ))}
        </div>
        {errors.scopes ? (
          <p id="scopes-error" className={css({ color: 'danger', fontSize: 'sm', mt: '1' })}>
            {errors.scopes}
          </p>
        ) : null}
      </fieldset>
      <SelectField label="Expires" name="expiry" defaultValue="90" error={errors.expiresInDays}>
        <Options
          items={API_KEY_EXPIRY_DAYS}
          value={(days) => (days === null ? 'never' : String(days))}
          label={(days) => (days === null ? 'Never' : `In ${days} days`)}
        />
      </SelectField>
      <ProofFields confirm={confirm} {...code.fields} />
      <button type="submit" className={button({})} {...submitWhilePending(create.isPending)}>
        {create.isPending ? <Spinner label="Creating" /> : null}
        {create.isPending ? 'Creating…' : 'Create key'}
      </button>
    </form>
  )
}

type KeyRow = {
  id: string
  name: string
  prefix: string
  scopes: string[]
  expiresAt: Date | string | null
  lastUsedAt: Date | string | null
  state: 'active' | 'revoked' | 'expired'
}

const STATE_LABELS: Record<KeyRow['state'], string> = { active: 'Active', revoked: 'Revoked', expired: 'Expired' }

function KeyList({ schoolId, keys }: { schoolId?: string; keys: KeyRow[] }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions(
      reloadThenToast(async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.pathKey() })
        // A revoked key has no Revoke button: focus stays in the list rather than drop to the page.
        focusElement(document.getElementById('keys-heading'))
      }, 'Key revoked'),
    ),
  )
  return (
    <TitledSection id="keys-heading" title="Your keys" className={card} titleClassName={heading}>
      {keys.length === 0 ? (
        <EmptyState title="No keys yet">
          <p>Create one above.</p>
        </EmptyState>
      ) : (
        <ul aria-label="API keys" className={css({ display: 'flex', flexDir: 'column', gap: '3' })}>
          {keys.map((key) => (
            <li
              key={key.id}
              className={css({ borderTopWidth: '1px', borderColor: 'line', pt: '3', overflowWrap: 'anywhere' })}
            >
              <p>
                <strong>{key.name}</strong> · <code>{key.prefix}…</code> · {STATE_LABELS[key.state]}
              </p>
              <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                {key.scopes.join(', ')} · last used {when(key.lastUsedAt, 'never')} · expires{' '}
                {when(key.expiresAt, 'never')}
              </p>
              {key.state === 'active' ? (
                <button
                  type="button"
                  // A long key name wraps rather than push a phone's page sideways.
                  className={cx(button({ variant: 'outline', size: 'sm', wrap: true }), css({ maxW: 'full' }))}
                  // Asked first, as the webhooks page asks before Remove: a revoked key cannot be given back.
                  {...whilePending(revoke.isPending, 'onClick', () => {
                    if (window.confirm(`Revoke the key “${key.name}”? Whatever uses it stops working at once.`))
                      revoke.mutate({ keyId: key.id, ...(schoolId ? { schoolId } : {}) })
                  })}
                >
                  Revoke {key.name}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </TitledSection>
  )
}
