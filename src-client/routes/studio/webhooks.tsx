// /studio/webhooks: the school owner's outgoing webhooks (decision 0061) — endpoints with their events, the signing
// secret (reveal, copy, rotate with 24 hours' overlap), a test event, and each endpoint's delivery log with Replay.
// Adding an endpoint, revealing and rotating its secret ask for a fresh proof (the password, an app code, or an
// e-mailed code: decision 0141, as API keys do), and a new endpoint's secret is shown once with Copy. The server
// checks the owner and the Enterprise plan on every call; this page only shows the answers.
import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useEffect, useId, useState } from 'react'
import {
  type ConfirmMethod,
  ProofFields,
  proofFromForm,
  usePrivacyCode,
} from '#client/components/account/ProofFields.tsx'
import { ShownOnce } from '#client/components/studio/ShownOnce.tsx'
import { StudioPage } from '#client/components/studio/StudioPage.tsx'
import { button } from '#client/components/ui/button.ts'
import { useSubmitForm } from '#client/components/ui/field-errors.tsx'
import { CheckboxField, FormAlert, TextField } from '#client/components/ui/form.tsx'
import { panel as card, panelHeading as heading } from '#client/components/ui/panel.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { EmptyState, Spinner } from '#client/components/ui/states.tsx'
import { notify, notifyError, reloadThenToast } from '#client/components/ui/toaster.tsx'
import { errorMessage } from '#client/lib/errors.ts'
import { focusElement } from '#client/lib/focus.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import {
  createWebhookEndpointInput,
  WEBHOOK_EVENT_DESCRIPTIONS,
  type WebhookEventType,
  webhookSecretInput,
} from '#shared/schemas/webhooks.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/studio/webhooks')({
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.webhooks.panel.queryOptions()),
  head: () => ({ meta: [{ title: 'Webhooks | SkillForge Studio' }] }),
  errorComponent: routeError('Could not load your webhooks'),
  component: WebhooksPage,
})

const actions = css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })
const mono = css({ fontFamily: 'mono', fontSize: 'sm', overflowWrap: 'anywhere' })

/** The id of an endpoint's heading (focus goes there once its new secret is put away). */
const endpointHeadingId = (endpointId: string) => `endpoint-${endpointId}-heading`

function WebhooksPage() {
  const { trpc } = Route.useRouteContext()
  const { data: panel } = useSuspenseQuery(trpc.webhooks.panel.queryOptions())
  const [created, setCreated] = useState<{ id: string; label: string; secret: string } | null>(null)
  return (
    <StudioPage
      title="Webhooks"
      intro={
        <>
          Your systems hear of orders, enrolments, completions, quizzes and questions in your school's courses as they
          happen, signed per the Standard Webhooks specification. What each event sends, and which record of the API it
          names: {/* A page of the server's (not one of the app's routes). */}
          <a href="/developers/api#webhooks" className={css({ textDecoration: 'underline' })}>
            the events in the API reference
          </a>
          .
        </>
      }
    >
      {panel.included ? (
        <>
          {created ? (
            <ShownOnce
              key={created.id}
              id="new-secret-heading"
              title={`The signing secret of “${created.label}”`}
              note="Copy it into your receiver now. You can reveal it again later, after confirming it is you."
              secret={created.secret}
              copyLabel="Copy secret"
              testId="new-webhook-secret"
              onDone={() => {
                setCreated(null)
                // The panel (and the button pressed) goes: focus moves to the new endpoint.
                focusElement(document.getElementById(endpointHeadingId(created.id)))
              }}
            />
          ) : null}
          <AddEndpoint
            eventTypes={panel.eventTypes}
            allowHttpLoopback={panel.allowHttpLoopback}
            confirm={panel.confirm}
            onCreated={setCreated}
          />
          {panel.endpoints.length === 0 ? (
            <EmptyState title="No endpoints yet">
              <p>Add the URL your system receives webhooks at.</p>
            </EmptyState>
          ) : (
            panel.endpoints.map((endpoint) => (
              <Endpoint key={endpoint.id} endpoint={endpoint} confirm={panel.confirm} />
            ))
          )}
        </>
      ) : (
        <EmptyState title="Webhooks come with the Enterprise plan">
          <p>
            <Link to="/pricing" className={css({ textDecoration: 'underline' })}>
              See Pricing
            </Link>{' '}
            to upgrade.
          </p>
        </EmptyState>
      )}
    </StudioPage>
  )
}

function EventChoices({ eventTypes, chosen }: { eventTypes: string[]; chosen?: string[] }) {
  return (
    <fieldset className={css({ display: 'flex', flexDir: 'column', gap: '1' })}>
      <legend className={css({ fontWeight: 'medium', mb: '1' })}>Events</legend>
      {eventTypes.map((type) => (
        <CheckboxField
          key={type}
          name="eventTypes"
          value={type}
          defaultChecked={chosen ? chosen.includes(type) : true}
          label={
            <>
              <code className={mono}>{type}</code> — {WEBHOOK_EVENT_DESCRIPTIONS[type as WebhookEventType] ?? type}
            </>
          }
        />
      ))}
    </fieldset>
  )
}

function AddEndpoint({
  eventTypes,
  allowHttpLoopback,
  confirm,
  onCreated,
}: {
  eventTypes: string[]
  allowHttpLoopback: boolean
  confirm: ConfirmMethod
  onCreated: (endpoint: { id: string; label: string; secret: string }) => void
}) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const create = useMutation(trpc.webhooks.create.mutationOptions())
  const code = usePrivacyCode('add-webhook-endpoint')
  const form = useSubmitForm({
    fields: ['url', 'description'],
    schema: createWebhookEndpointInput,
    read: (data) => ({
      url: String(data.get('url') ?? ''),
      description: String(data.get('description') ?? ''),
      eventTypes: data.getAll('eventTypes').map(String),
      // The endpoint hears of the school's orders and learners until removed: the server asks who adds it.
      ...proofFromForm(data),
    }),
    send: async (input, element) => {
      const made = await create.mutateAsync(input)
      element.reset()
      code.reset()
      await queryClient.invalidateQueries({ queryKey: trpc.webhooks.panel.queryKey() })
      // The secret the answer carries, shown once above the form (it can be revealed again with a proof).
      onCreated({ id: made.id, label: input.description || input.url, secret: made.secret })
    },
    done: 'Endpoint added',
  })
  return (
    <form {...SCRIPT_ONLY_FORM} {...form.formProps} aria-labelledby="add-heading" className={card}>
      <h2 id="add-heading" className={heading}>
        Add an endpoint
      </h2>
      <FormAlert>{form.formError}</FormAlert>
      <TextField
        label="Endpoint URL"
        name="url"
        type="url"
        required
        maxLength={2000}
        error={form.errors.url}
        hint={
          allowHttpLoopback
            ? 'https://…, or http:// on this machine (127.0.0.1) while testing.'
            : 'Starts with https://'
        }
      />
      <TextField label="Description (optional)" name="description" maxLength={200} error={form.errors.description} />
      <EventChoices eventTypes={eventTypes} />
      <ProofFields confirm={confirm} {...code.fields} />
      <button type="submit" className={button({})} {...submitWhilePending(create.isPending)}>
        {create.isPending ? <Spinner label="Adding" /> : null}
        {create.isPending ? 'Adding…' : 'Add endpoint'}
      </button>
    </form>
  )
}

type EndpointView = {
  id: string
  url: string
  description: string
  eventTypes: string[]
  enabled: boolean
  disabledReason: string | null
  previousSecretUntil: Date | string | null
}

function Endpoint({ endpoint, confirm }: { endpoint: EndpointView; confirm: ConfirmMethod }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() })
  const [showLog, setShowLog] = useState(false)
  const onError = (error: unknown) => notifyError(error)
  const sendTest = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      onSuccess: async () => {
        setShowLog(true)
        await refresh()
        notify('success', 'Test event queued')
      },
      onError,
    }),
  )
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: refresh, onError }))
  const remove = useMutation(trpc.webhooks.remove.mutationOptions(reloadThenToast(refresh, 'Endpoint removed')))
  const label = endpoint.description || endpoint.url
  return (
    <section aria-label={`Endpoint ${label}`} className={card}>
      <h2 id={endpointHeadingId(endpoint.id)} className={heading}>
        {label}
      </h2>
      <p className={mono}>{endpoint.url}</p>
      <p>
        Status: <strong>{endpoint.enabled ? 'Enabled' : 'Disabled'}</strong>
        {endpoint.disabledReason ? ` — ${endpoint.disabledReason}` : ''}
      </p>
      <p className={css({ color: 'fg.muted', overflowWrap: 'anywhere' })}>Events: {endpoint.eventTypes.join(', ')}</p>
      <Secret endpointId={endpoint.id} previousSecretUntil={endpoint.previousSecretUntil} confirm={confirm} />
      <div className={actions}>
        <button
          type="button"
          className={button({ size: 'sm' })}
          disabled={!endpoint.enabled}
          {...whilePending(sendTest.isPending, 'onClick', () => sendTest.mutate({ endpointId: endpoint.id }))}
        >
          Send test event
        </button>
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          // The button keeps focus while it changes to Enable/Disable.
          {...whilePending(update.isPending, 'onClick', () =>
            update.mutate({
              endpointId: endpoint.id,
              description: endpoint.description,
              eventTypes: endpoint.eventTypes as WebhookEventType[],
              enabled: !endpoint.enabled,
            }),
          )}
        >
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </button>
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          aria-expanded={showLog}
          onClick={() => setShowLog(!showLog)}
        >
          {showLog ? 'Hide delivery log' : 'Delivery log'}
        </button>
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          {...whilePending(remove.isPending, 'onClick', () => {
            if (window.confirm(`Remove the endpoint ${endpoint.url}?`)) remove.mutate({ endpointId: endpoint.id })
          })}
        >
          Remove
        </button>
      </div>
      {showLog ? <DeliveryLog endpointId={endpoint.id} /> : null}
    </section>
  )
}

type SecretStep = 'reveal' | 'rotate'

function Secret({
  endpointId,
  previousSecretUntil,
  confirm,
}: {
  endpointId: string
  previousSecretUntil: Date | string | null
  confirm: ConfirmMethod
}) {
  const [secret, setSecret] = useState<string | null>(null)
  // Reveal and Rotate first ask who is there (the proof's form); Cancel closes it.
  const [step, setStep] = useState<SecretStep | null>(null)
  // Where focus goes once the buttons are back: the one that opened the form, or Copy secret.
  const [focusNext, setFocusNext] = useState<string | null>(null)
  useEffect(() => {
    if (focusNext && focusElement(document.getElementById(focusNext))) setFocusNext(null)
  }, [focusNext])
  const ids = { reveal: `${endpointId}-reveal`, rotate: `${endpointId}-rotate`, copy: `${endpointId}-copy` }
  async function copy() {
    if (!secret) return
    try {
      await navigator.clipboard.writeText(secret)
      notify('success', 'Secret copied')
    } catch {
      notify('error', 'Could not copy: select the secret and copy it')
    }
  }
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
      <p>
        Signing secret:{' '}
        <code className={mono} data-testid="webhook-secret">
          {secret ?? 'whsec_••••••••'}
        </code>
      </p>
      {previousSecretUntil ? (
        <p className={css({ color: 'fg.muted' })}>
          The previous secret also signs until {formatDate(previousSecretUntil, 'localTime')}.
        </p>
      ) : null}
      {step ? (
        <SecretProof
          endpointId={endpointId}
          step={step}
          confirm={confirm}
          onShown={(shown) => {
            setSecret(shown)
            setStep(null)
            setFocusNext(ids.copy)
          }}
          onCancel={() => {
            setStep(null)
            setFocusNext(secret ? ids.rotate : ids[step])
          }}
        />
      ) : (
        <div className={actions}>
          {secret ? (
            <>
              <button type="button" id={ids.copy} className={button({ variant: 'outline', size: 'sm' })} onClick={copy}>
                Copy secret
              </button>
              <button
                type="button"
                className={button({ variant: 'outline', size: 'sm' })}
                onClick={() => {
                  setSecret(null)
                  setFocusNext(ids.reveal)
                }}
              >
                Hide secret
              </button>
            </>
          ) : (
            <button
              type="button"
              id={ids.reveal}
              className={button({ variant: 'outline', size: 'sm' })}
              onClick={() => setStep('reveal')}
            >
              Reveal secret
            </button>
          )}
          <button
            type="button"
            id={ids.rotate}
            className={button({ variant: 'outline', size: 'sm' })}
            onClick={() => setStep('rotate')}
          >
            Rotate secret
          </button>
        </div>
      )}
    </div>
  )
}

const SECRET_STEPS: Record<SecretStep, { title: string; text: string; submit: string; pending: string }> = {
  reveal: {
    title: 'Reveal the secret',
    text: 'Confirm it is you. The school’s owner is e-mailed whenever a secret is shown.',
    submit: 'Reveal secret',
    pending: 'Revealing…',
  },
  rotate: {
    title: 'Rotate the secret?',
    text: 'A new secret signs from now on; the current one keeps signing for 24 hours. Confirm it is you.',
    submit: 'Rotate secret',
    pending: 'Rotating…',
  },
}

/** The proof a secret is shown for (decision 0141): the password, an app code, or an e-mailed code. */
function SecretProof({
  endpointId,
  step,
  confirm,
  onShown,
  onCancel,
}: {
  endpointId: string
  step: SecretStep
  confirm: ConfirmMethod
  onShown: (secret: string) => void
  onCancel: () => void
}) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const reveal = useMutation(trpc.webhooks.revealSecret.mutationOptions())
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions())
  const pending = reveal.isPending || rotate.isPending
  const code = usePrivacyCode('webhook-secret')
  const headingId = useId()
  const words = SECRET_STEPS[step]
  const form = useSubmitForm({
    fields: [],
    schema: webhookSecretInput,
    read: (data) => ({ endpointId, ...proofFromForm(data) }),
    send: async (input) => {
      if (step === 'reveal') {
        onShown((await reveal.mutateAsync(input)).secret)
        return
      }
      const { secret } = await rotate.mutateAsync(input)
      await queryClient.invalidateQueries({ queryKey: trpc.webhooks.panel.queryKey() })
      notify('success', 'Secret rotated: the previous one keeps signing for 24 hours')
      onShown(secret)
    },
  })
  // The form replaces the button pressed: the keyboard goes on in it (the password, or "E-mail me a code").
  useEffect(() => {
    focusElement(document.getElementById(headingId)?.closest('form')?.querySelector<HTMLElement>('input, button'))
  }, [headingId])
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      {...form.formProps}
      aria-labelledby={headingId}
      className={css({ display: 'flex', flexDir: 'column', gap: '2', maxW: 'md' })}
    >
      <h3 id={headingId} className={css({ fontWeight: 'semibold' })}>
        {words.title}
      </h3>
      <p className={css({ fontSize: 'sm' })}>{words.text}</p>
      <FormAlert>{form.formError}</FormAlert>
      <ProofFields confirm={confirm} small {...code.fields} />
      <div className={actions}>
        <button type="submit" className={button({ size: 'sm' })} {...submitWhilePending(pending)}>
          {pending ? <Spinner label={words.pending} /> : null}
          {pending ? words.pending : words.submit}
        </button>
        <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}

const STATUS_TEXT = { delivered: 'Delivered', failed: 'Failed', retrying: 'Retrying', pending: 'Pending' } as const

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const log = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({ endpointId }),
    // While deliveries are on their way the log refreshes itself.
    refetchInterval: (query) =>
      query.state.data?.some((row) => row.status === 'pending' || row.status === 'retrying') ? 2000 : false,
  })
  const replay = useMutation(
    trpc.webhooks.replay.mutationOptions(
      reloadThenToast(
        () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey({ endpointId }) }),
        'Replay queued',
      ),
    ),
  )
  if (log.isPending) return <Spinner label="Loading deliveries" />
  if (log.isError) return <FormAlert>{errorMessage(log.error)}</FormAlert>
  if (log.data.length === 0) return <p className={css({ color: 'fg.muted' })}>No deliveries yet.</p>
  return (
    <ul aria-label="Delivery log" className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
      {log.data.map((row) => (
        <li
          key={row.id}
          className={css({
            display: 'flex',
            gap: '2',
            flexWrap: 'wrap',
            justifyContent: 'space-between',
            borderTopWidth: '1px',
            borderColor: 'line',
            pt: '2',
          })}
        >
          <span className={css({ minW: 0, overflowWrap: 'anywhere' })}>
            <code className={mono}>{row.eventType}</code> · <strong>{STATUS_TEXT[row.status]}</strong>
            {row.lastStatusCode ? ` (HTTP ${row.lastStatusCode})` : ''} · {row.attempts}{' '}
            {row.attempts === 1 ? 'attempt' : 'attempts'}
            {row.isReplay ? ' · replay' : ''}
            <br />
            <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>
              {formatDate(row.createdAt, 'localTime')}
              {row.lastError ? ` · ${row.lastError}` : ''}
              {row.nextAttemptAt ? ` · next try ${formatDate(row.nextAttemptAt, 'localTime')}` : ''}
            </span>
          </span>
          <button
            type="button"
            className={button({ variant: 'outline', size: 'sm' })}
            {...whilePending(replay.isPending, 'onClick', () => replay.mutate({ deliveryId: row.id }))}
          >
            Replay
          </button>
        </li>
      ))}
    </ul>
  )
}
