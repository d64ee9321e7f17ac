// The Connect half of the fake Stripe (issue 31): Express accounts, onboarding through Account Links (a hosted page
// whose button completes what Stripe would ask for), Express dashboard login links, transfers to connected accounts
// with idempotency keys, transfer reversals, balance transactions (with Stripe's processing fee on charges) and the
// platform's balance. Shapes follow Stripe's API reference for the SDK's pinned version (stripe 23, 2026-10-28):
// only the fields the app reads are filled in, with their real names and types. Connect events (account.updated,
// transfer.reversed) are queued like billing's and carry the connected account's id in `account`.
import { randomBytes } from 'node:crypto'

// biome-ignore lint/suspicious/noExplicitAny: decoded form params are free-form, like Stripe's own
type Loose = any

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`
const now = () => Math.floor(Date.now() / 1000)

/** What Express onboarding asks an individual for until they finish it. */
const ONBOARDING_DUE = [
  'business_profile.url',
  'external_account',
  'individual.dob.day',
  'individual.first_name',
  'individual.last_name',
  'tos_acceptance.date',
]

export interface FakeAccount {
  id: string
  object: 'account'
  type: 'express'
  country: string
  email: string | null
  default_currency: string
  created: number
  charges_enabled: boolean
  payouts_enabled: boolean
  details_submitted: boolean
  metadata: Record<string, string>
  capabilities: { transfers: 'active' | 'inactive' | 'pending' }
  requirements: {
    alternatives: []
    current_deadline: number | null
    currently_due: string[]
    disabled_reason: string | null
    errors: []
    eventually_due: string[]
    past_due: string[]
    pending_verification: string[]
  }
}

export interface FakeBalanceTransaction {
  id: string
  object: 'balance_transaction'
  amount: number
  available_on: number
  created: number
  currency: string
  description: string | null
  exchange_rate: null
  fee: number
  fee_details: { amount: number; application: null; currency: string; description: string; type: 'stripe_fee' }[]
  net: number
  reporting_category: string
  source: string
  status: 'available' | 'pending'
  type: 'charge' | 'transfer' | 'transfer_cancel' | 'refund' | 'adjustment'
}

export interface FakeTransferReversal {
  id: string
  object: 'transfer_reversal'
  amount: number
  balance_transaction: string
  created: number
  currency: string
  destination_payment_refund: null
  metadata: Record<string, string>
  source_refund: null
  transfer: string
}

export interface FakeTransfer {
  id: string
  object: 'transfer'
  amount: number
  amount_reversed: number
  balance_transaction: string
  created: number
  currency: string
  description: string | null
  destination: string
  livemode: false
  metadata: Record<string, string>
  reversals: { object: 'list'; data: FakeTransferReversal[]; has_more: false; url: string }
  reversed: boolean
  source_transaction: string | null
  transfer_group: string | null
}

export interface FakeConnect {
  accounts: Map<string, FakeAccount>
  transfers: Map<string, FakeTransfer>
  balanceTransactions: Map<string, FakeBalanceTransaction>
  /** The platform's available balance per currency (lower case), which transfers draw on. */
  balance: Map<string, number>
  /** Finishes onboarding as the hosted page's button does: nothing due, charges and payouts enabled. */
  completeOnboarding(accountId: string): FakeAccount
  /** Stripe asks for more (e.g. a document) with a deadline: payouts stop until it is given. */
  requireMore(accountId: string, fields: string[], deadline?: number): FakeAccount
  /**
   * The next transfer create answers with this Stripe error (an outage, say); later ones run on. As Stripe does, the
   * answer is kept under the request's idempotency key: a retry with that key gets it again until keys expire.
   */
  failNextTransfer(message?: string, status?: number): void
  /**
   * The next transfer is made, but its answer is lost: by default Stripe answers 500 after making it (a server error's
   * result is indeterminate); 'reset' drops the connection with no answer at all, as a timeout or a reset does, and
   * drops the SDK's own retry of it too (stripe-node retries a closed connection once, even with retries off).
   */
  loseNextTransferAnswer(how?: 'server_error' | 'reset'): void
  /** Stripe removes idempotency keys once they are 24 hours old: a later retry with one makes a new object. */
  expireIdempotencyKeys(): void
  /** Stripe's fee on a card charge of `amount`: 2.9 % + 30 minor units, rounded half up. */
  feeFor(amount: number): number
  /** A charge's balance transaction (amount, Stripe's fee, net), as charge.balance_transaction expands to. */
  recordCharge(chargeId: string, amount: number, currency: string): FakeBalanceTransaction
  /** A dispute's withdrawal (the disputed amount out, and Stripe's chargeback fee, 15.00 by default). */
  recordDispute(disputeId: string, amount: number, currency: string, fee?: number): FakeBalanceTransaction
}

type Queue = (type: string, object: unknown, account?: string) => void
type Answer = { status: number; body: unknown; type?: string } | undefined

export function createConnect(baseUrl: () => string, queue: Queue) {
  const accounts = new Map<string, FakeAccount>()
  const transfers = new Map<string, FakeTransfer>()
  const balanceTransactions = new Map<string, FakeBalanceTransaction>()
  const balance = new Map<string, number>([
    ['usd', 10_000_000_00],
    ['gbp', 10_000_000_00],
  ])
  const links = new Map<string, { account: string; refresh_url: string; return_url: string; expires_at: number }>()
  const byKey = new Map<string, { params: string; status: number; answer: unknown }>()
  let transferFailure: { message: string; status: number } | null = null
  let loseTransferAnswer: 'server_error' | 'reset' | null = null
  let resetsLeft = 0

  function balanceTransaction(
    type: FakeBalanceTransaction['type'],
    amount: number,
    currency: string,
    source: string,
    fee = 0,
  ): FakeBalanceTransaction {
    const bt: FakeBalanceTransaction = {
      id: id('txn'),
      object: 'balance_transaction',
      amount,
      available_on: now() + (type === 'charge' ? 2 * 86_400 : 0),
      created: now(),
      currency,
      description: null,
      exchange_rate: null,
      fee,
      fee_details: fee
        ? [{ amount: fee, application: null, currency, description: 'Stripe processing fees', type: 'stripe_fee' }]
        : [],
      net: amount - fee,
      reporting_category: type,
      source,
      status: type === 'charge' ? 'pending' : 'available',
      type,
    }
    balanceTransactions.set(bt.id, bt)
    return bt
  }

  const connect: FakeConnect = {
    accounts,
    transfers,
    balanceTransactions,
    balance,
    completeOnboarding(accountId) {
      const account = accounts.get(accountId)
      if (!account) throw new Error(`No such account ${accountId}`)
      account.details_submitted = true
      account.charges_enabled = true
      account.payouts_enabled = true
      account.capabilities.transfers = 'active'
      account.requirements = {
        ...account.requirements,
        currently_due: [],
        eventually_due: [],
        past_due: [],
        current_deadline: null,
        disabled_reason: null,
      }
      queue('account.updated', structuredClone(account), account.id)
      return account
    },
    requireMore(accountId, fields, deadline = now() + 14 * 86_400) {
      const account = accounts.get(accountId)
      if (!account) throw new Error(`No such account ${accountId}`)
      account.payouts_enabled = false
      account.requirements = {
        ...account.requirements,
        currently_due: fields,
        eventually_due: fields,
        current_deadline: deadline,
        disabled_reason: 'requirements.past_due',
      }
      queue('account.updated', structuredClone(account), account.id)
      return account
    },
    failNextTransfer(message = 'An error occurred with our connection to Stripe.', status = 500) {
      transferFailure = { message, status }
    },
    loseNextTransferAnswer(how = 'server_error') {
      loseTransferAnswer = how
      resetsLeft = how === 'reset' ? 2 : 0
    },
    expireIdempotencyKeys() {
      byKey.clear()
    },
    feeFor(amount) {
      return Math.floor((amount * 29 + 500) / 1000) + 30
    },
    recordCharge(chargeId, amount, currency) {
      const existing = [...balanceTransactions.values()].find((bt) => bt.source === chargeId && bt.type === 'charge')
      return existing ?? balanceTransaction('charge', amount, currency, chargeId, connect.feeFor(amount))
    },
    recordDispute(disputeId, amount, currency, fee = 1500) {
      const existing = [...balanceTransactions.values()].find((bt) => bt.source === disputeId)
      if (existing) return existing
      const bt = balanceTransaction('adjustment', -amount, currency, disputeId, fee)
      bt.reporting_category = 'dispute'
      bt.description = `Chargeback withdrawal for ${disputeId}`
      for (const detail of bt.fee_details) detail.description = 'Dispute fee'
      return bt
    },
  }

  const error = (status: number, message: string, type = 'invalid_request_error', code?: string) => ({
    status,
    body: { error: { message, type, ...(code ? { code } : {}) } },
  })

  /**
   * Stripe's idempotency: the same key and parameters answer the first result; other parameters are refused. Stripe
   * saves the result of a request its endpoint began to execute, success or failure; only a request whose parameters
   * failed validation saves nothing. `keepFailures` (transfers) keeps failures too: a refusal, a server error.
   */
  function idempotent(
    key: string | undefined,
    params: Record<string, Loose>,
    create: () => Answer,
    keepFailures = false,
  ): Answer {
    if (!key) return create()
    const seen = byKey.get(key)
    const signature = JSON.stringify(params)
    if (seen) {
      if (seen.params !== signature) {
        return error(
          400,
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          'idempotency_error',
        )
      }
      return { status: seen.status, body: seen.answer }
    }
    const answer = create()
    if (answer && (answer.status === 200 || (keepFailures && !failedValidation(answer)))) {
      byKey.set(key, { params: signature, status: answer.status, answer: answer.body })
    }
    return answer
  }

  /** A request refused for its parameters' form (an amount that is not a positive integer): never executed. */
  const failedValidation = (answer: NonNullable<Answer>) =>
    String((answer.body as { error?: { code?: string } } | null)?.error?.code ?? '').startsWith('parameter_invalid')

  function createTransfer(params: Record<string, Loose>): Answer {
    if (transferFailure) {
      const failure = transferFailure
      transferFailure = null
      return error(failure.status, failure.message, 'api_error')
    }
    const amount = Number(params.amount)
    const currency = String(params.currency ?? '').toLowerCase()
    const account = accounts.get(String(params.destination ?? ''))
    if (!Number.isInteger(amount) || amount < 1)
      return error(400, 'Invalid positive integer', 'invalid_request_error', 'parameter_invalid_integer')
    if (!account)
      return error(400, `No such destination: '${params.destination}'`, 'invalid_request_error', 'resource_missing')
    if (account.capabilities.transfers !== 'active') {
      return error(
        400,
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        'invalid_request_error',
        'insufficient_capabilities_for_transfer',
      )
    }
    const available = balance.get(currency) ?? 0
    if (available < amount) {
      return error(
        400,
        'You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card.',
        'invalid_request_error',
        'balance_insufficient',
      )
    }
    balance.set(currency, available - amount)
    const transferId = id('tr')
    const bt = balanceTransaction('transfer', -amount, currency, transferId)
    const transfer: FakeTransfer = {
      id: transferId,
      object: 'transfer',
      amount,
      amount_reversed: 0,
      balance_transaction: bt.id,
      created: now(),
      currency,
      description: params.description ?? null,
      destination: account.id,
      livemode: false,
      metadata: params.metadata ?? {},
      reversals: { object: 'list', data: [], has_more: false, url: `/v1/transfers/${transferId}/reversals` },
      reversed: false,
      source_transaction: params.source_transaction ?? null,
      transfer_group: params.transfer_group ?? null,
    }
    transfers.set(transferId, transfer)
    queue('transfer.created', structuredClone(transfer))
    return { status: 200, body: transfer }
  }

  function reverse(transfer: FakeTransfer, params: Record<string, Loose>): Answer {
    const left = transfer.amount - transfer.amount_reversed
    const amount = params.amount === undefined ? left : Number(params.amount)
    if (!Number.isInteger(amount) || amount < 1 || amount > left) {
      return error(400, `You cannot reverse more than the amount of the transfer that has not been reversed (${left}).`)
    }
    const bt = balanceTransaction('transfer_cancel', amount, transfer.currency, transfer.id)
    balance.set(transfer.currency, (balance.get(transfer.currency) ?? 0) + amount)
    const reversal: FakeTransferReversal = {
      id: id('trr'),
      object: 'transfer_reversal',
      amount,
      balance_transaction: bt.id,
      created: now(),
      currency: transfer.currency,
      destination_payment_refund: null,
      metadata: params.metadata ?? {},
      source_refund: null,
      transfer: transfer.id,
    }
    transfer.reversals.data.unshift(reversal)
    transfer.amount_reversed += amount
    transfer.reversed = transfer.amount_reversed === transfer.amount
    queue('transfer.reversed', structuredClone(transfer))
    return { status: 200, body: reversal }
  }

  /** Answers a Connect request, or undefined when the path is not Connect's. */
  function handle(method: string, url: URL, params: Record<string, Loose>, idempotencyKey?: string): Answer {
    const path = url.pathname
    const accountPath = /^\/v1\/accounts\/([\w-]+)$/.exec(path)
    const loginPath = /^\/v1\/accounts\/([\w-]+)\/login_links$/.exec(path)
    const transferPath = /^\/v1\/transfers\/([\w-]+)$/.exec(path)
    const reversalPath = /^\/v1\/transfers\/([\w-]+)\/reversals$/.exec(path)
    const btPath = /^\/v1\/balance_transactions\/([\w-]+)$/.exec(path)

    if (method === 'POST' && path === '/v1/accounts') {
      return idempotent(idempotencyKey, params, () => {
        const express = params.type === 'express' || params.controller?.stripe_dashboard?.type === 'express'
        if (!express)
          return error(
            400,
            'This fake Stripe creates Express accounts only (type=express, or controller[stripe_dashboard][type]=express).',
          )
        const country = String(params.country ?? 'US').toUpperCase()
        const account: FakeAccount = {
          id: id('acct'),
          object: 'account',
          type: 'express',
          country,
          email: params.email ?? null,
          default_currency: country === 'GB' ? 'gbp' : 'usd',
          created: now(),
          charges_enabled: false,
          payouts_enabled: false,
          details_submitted: false,
          metadata: params.metadata ?? {},
          capabilities: { transfers: 'inactive' },
          requirements: {
            alternatives: [],
            current_deadline: null,
            currently_due: [...ONBOARDING_DUE],
            disabled_reason: 'requirements.past_due',
            errors: [],
            eventually_due: [...ONBOARDING_DUE],
            past_due: [...ONBOARDING_DUE],
            pending_verification: [],
          },
        }
        accounts.set(account.id, account)
        return { status: 200, body: account }
      })
    }
    if (accountPath && method === 'GET') {
      const account = accounts.get(accountPath[1]!)
      return account
        ? { status: 200, body: account }
        : error(404, `No such account: '${accountPath[1]}'`, 'invalid_request_error', 'resource_missing')
    }
    if (method === 'POST' && path === '/v1/account_links') {
      const account = accounts.get(String(params.account ?? ''))
      if (!account)
        return error(400, `No such account: '${params.account}'`, 'invalid_request_error', 'resource_missing')
      if (!params.refresh_url || !params.return_url) return error(400, 'Missing required param: return_url.')
      const linkId = id('acctlink')
      const expires_at = now() + 300
      links.set(linkId, {
        account: account.id,
        refresh_url: params.refresh_url,
        return_url: params.return_url,
        expires_at,
      })
      return {
        status: 200,
        body: { object: 'account_link', created: now(), expires_at, url: `${baseUrl()}/connect/onboarding/${linkId}` },
      }
    }
    if (loginPath && method === 'POST') {
      const account = accounts.get(loginPath[1]!)
      if (!account) return error(404, `No such account: '${loginPath[1]}'`, 'invalid_request_error', 'resource_missing')
      if (!account.details_submitted)
        return error(400, 'Cannot create a login link for an account that has not completed onboarding.')
      return {
        status: 200,
        body: { object: 'login_link', created: now(), url: `${baseUrl()}/connect/express/${account.id}` },
      }
    }
    if (method === 'POST' && path === '/v1/transfers') {
      const answer = idempotent(idempotencyKey, params, () => createTransfer(params), true)
      const lost = loseTransferAnswer
      if (!lost) return answer
      if (lost === 'reset') {
        if (--resetsLeft <= 0) loseTransferAnswer = null
        return { status: 0, body: null, type: 'reset' }
      }
      loseTransferAnswer = null
      return error(500, 'An error occurred with our connection to Stripe.', 'api_error')
    }
    if (transferPath && method === 'GET') {
      const transfer = transfers.get(transferPath[1]!)
      return transfer
        ? { status: 200, body: transfer }
        : error(404, `No such transfer: '${transferPath[1]}'`, 'invalid_request_error', 'resource_missing')
    }
    if (reversalPath && method === 'POST') {
      const transfer = transfers.get(reversalPath[1]!)
      if (!transfer)
        return error(404, `No such transfer: '${reversalPath[1]}'`, 'invalid_request_error', 'resource_missing')
      return idempotent(idempotencyKey, { transfer: transfer.id, ...params }, () => reverse(transfer, params))
    }
    if (btPath && method === 'GET') {
      const bt = balanceTransactions.get(btPath[1]!)
      return bt
        ? { status: 200, body: bt }
        : error(404, `No such balance transaction: '${btPath[1]}'`, 'invalid_request_error', 'resource_missing')
    }
    if (method === 'GET' && path === '/v1/transfers') {
      // Newest first, optionally to one connected account and of one group (Stripe's `destination` and
      // `transfer_group` filters).
      const destination = url.searchParams.get('destination')
      const group = url.searchParams.get('transfer_group')
      const data = [...transfers.values()]
        .filter((transfer) => !destination || transfer.destination === destination)
        .filter((transfer) => !group || transfer.transfer_group === group)
        .reverse()
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/transfers' } }
    }
    if (method === 'GET' && path === '/v1/balance') {
      const amounts = [...balance].map(([currency, amount]) => ({ amount, currency, source_types: { card: amount } }))
      return {
        status: 200,
        body: {
          object: 'balance',
          available: amounts,
          pending: amounts.map((a) => ({ ...a, amount: 0 })),
          livemode: false,
        },
      }
    }
    // The hosted pages (not the API): onboarding and the Express dashboard.
    const onboardingPath = /^\/connect\/onboarding\/([\w-]+)$/.exec(path)
    if (onboardingPath) {
      const link = links.get(onboardingPath[1]!)
      if (!link) return { status: 404, body: '<h1>This link is not valid</h1>', type: 'text/html' }
      if (link.expires_at < now()) return { status: 302, body: '', type: `redirect:${link.refresh_url}` }
      if (method === 'POST') {
        links.delete(onboardingPath[1]!)
        connect.completeOnboarding(link.account)
        return { status: 302, body: '', type: `redirect:${link.return_url}` }
      }
      return {
        status: 200,
        type: 'text/html',
        body: `<!doctype html><title>Stripe Express onboarding</title><h1>Set up payouts</h1><p>Account ${link.account}</p><form method="post"><button type="submit">Agree and submit</button></form><p><a href="${link.refresh_url}">Start again</a></p>`,
      }
    }
    const dashboardPath = /^\/connect\/express\/([\w-]+)$/.exec(path)
    if (dashboardPath && accounts.has(dashboardPath[1]!)) {
      return {
        status: 200,
        type: 'text/html',
        body: `<!doctype html><title>Express dashboard</title><h1>Express dashboard</h1><p>Account ${dashboardPath[1]}</p>`,
      }
    }
    return undefined
  }

  return { connect, handle }
}
