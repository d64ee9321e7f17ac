// The billing half of the fake Stripe: customers, subscriptions, invoices, products, proration previews, plan
// changes, cancellation at period end, customer-portal sessions and a test clock. Advancing the clock does what
// Stripe would at each moment (trial_will_end 3 days before a trial ends, a renewal invoice paid or failed at each
// period end, deletion at the end of a cancelled period) and sends the same events, signed, in time order.
import { randomBytes } from 'node:crypto'

// biome-ignore lint/suspicious/noExplicitAny: decoded form params are free-form, like Stripe's own
type Loose = any

const DAY = 86_400
const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`

export interface FakePrice {
  id: string
  unit_amount: number
  currency: string
  recurring: { interval: 'month' | 'year' }
  product: string
}

/** Stripe's Coupon (API 2025-10-29.clover): an amount or a percentage off, for one invoice, N months, or always. */
export interface FakeCoupon {
  id: string
  object: 'coupon'
  amount_off: number | null
  percent_off: number | null
  currency: string | null
  duration: 'once' | 'repeating' | 'forever'
  duration_in_months: number | null
  max_redemptions: number | null
  times_redeemed: number
  name: string | null
  metadata: Record<string, string>
  valid: boolean
  created: number
  livemode: false
}

/** Stripe's Discount: a coupon applied to a subscription, from `start` until `end` (null: no end). */
export interface FakeDiscount {
  id: string
  object: 'discount'
  coupon: FakeCoupon
  customer: string
  subscription: string
  start: number
  end: number | null
}

/** What a coupon takes off an amount (never more than the amount). */
export function couponAmount(coupon: Pick<FakeCoupon, 'amount_off' | 'percent_off'>, amount: number): number {
  if (coupon.amount_off !== null) return Math.min(coupon.amount_off, amount)
  return Math.min(amount, Math.round((amount * (coupon.percent_off ?? 0)) / 100))
}

export interface FakeSubscription {
  id: string
  object: 'subscription'
  customer: string
  status: 'trialing' | 'active' | 'past_due' | 'canceled'
  created: number
  start_date: number
  trial_start: number | null
  trial_end: number | null
  cancel_at_period_end: boolean
  cancel_at: number | null
  canceled_at: number | null
  ended_at: number | null
  cancellation_details: { reason: string | null; comment: string | null }
  metadata: Record<string, string>
  latest_invoice: string | null
  /** The ids of the discounts in force (Stripe's `discounts` since API 2025-03-31.basil). */
  discounts: string[]
  /** Stripe Tax, as the Checkout Session that made it asked (automatic_tax): its invoices add tax. */
  automatic_tax: { enabled: boolean }
  items: {
    object: 'list'
    data: { id: string; quantity: 1; current_period_start: number; current_period_end: number; price: FakePrice }[]
  }
}

export interface FakeInvoice {
  id: string
  object: 'invoice'
  customer: string
  status: 'paid' | 'open'
  amount_due: number
  amount_paid: number
  subtotal: number
  total: number
  /** The discount each applied discount took off this invoice. */
  total_discount_amounts: { amount: number; discount: string }[]
  discounts: string[]
  /** The taxes in the total (since API 2025-03-31.basil): the fake's Stripe Tax, 20 % on top. */
  total_taxes: { amount: number; tax_behavior: 'exclusive'; taxable_amount: number; type: 'tax_rate_details' }[]
  currency: string
  billing_reason: string
  hosted_invoice_url: string
  period_start: number
  period_end: number
  created: number
  parent: {
    type: 'subscription_details'
    subscription_details: { subscription: string; metadata: Record<string, string> }
  }
  lines: { object: 'list'; data: { amount: number; description: string; period: { start: number; end: number } }[] }
  status_transitions: { paid_at: number | null }
}

type Emit = (type: string, object: unknown, created: number) => void
/** Takes an invoice's money through a payment intent of its own (Stripe's invoice payment), as a card payment. */
type Pay = (invoice: FakeInvoice) => void

/**
 * `pay` takes the money of each paid invoice after the first (renewals, prorations, an open invoice paid later): the
 * first invoice's is the Checkout Session's payment (fake-stripe.ts).
 */
export function createBilling(baseUrl: () => string, emit: Emit, pay: Pay = () => {}) {
  let now = Math.floor(Date.now() / 1000)
  const customers = new Map<string, { id: string; email: string | null; failPayments: boolean; backdate: number }>()
  const subscriptions = new Map<string, FakeSubscription>()
  const invoices = new Map<string, FakeInvoice>()
  const products = new Map<string, { id: string; name: string }>()
  const portalSessions = new Map<string, { id: string; customer: string; return_url: string }>()
  const coupons = new Map<string, FakeCoupon>()
  const discounts = new Map<string, FakeDiscount>()
  const trialWarned = new Set<string>()
  const snapshot = (sub: FakeSubscription) => structuredClone(sub)

  const addInterval = (from: number, interval: 'month' | 'year') => {
    const date = new Date(from * 1000)
    if (interval === 'year') date.setUTCFullYear(date.getUTCFullYear() + 1)
    else date.setUTCMonth(date.getUTCMonth() + 1)
    return Math.floor(date.getTime() / 1000)
  }

  const addMonths = (from: number, months: number) => {
    const date = new Date(from * 1000)
    date.setUTCMonth(date.getUTCMonth() + months)
    return Math.floor(date.getTime() / 1000)
  }

  function customerFor(email: string | null) {
    const existing = [...customers.values()].find((c) => email && c.email === email)
    if (existing) return existing
    const customer = { id: id('cus'), email, failPayments: false, backdate: 0 }
    customers.set(customer.id, customer)
    return customer
  }

  /**
   * The subscription's discounts that cover an invoice for a period starting at `start`: a `once` discount covers the
   * first invoice with something to pay and is then removed; a `repeating` one each invoice until its end.
   */
  function discountFor(sub: FakeSubscription, amount: number, start: number) {
    const applied: { amount: number; discount: string }[] = []
    let left = amount
    for (const discountId of [...sub.discounts]) {
      const discount = discounts.get(discountId)
      if (!discount) continue
      if (discount.end !== null && start >= discount.end) {
        sub.discounts = sub.discounts.filter((d) => d !== discountId)
        continue
      }
      if (amount <= 0) continue
      const off = couponAmount(discount.coupon, left)
      left -= off
      applied.push({ amount: off, discount: discountId })
      if (discount.coupon.duration === 'once') sub.discounts = sub.discounts.filter((d) => d !== discountId)
    }
    return applied
  }

  function invoice(sub: FakeSubscription, subtotal: number, reason: string, period: { start: number; end: number }) {
    const customer = customers.get(sub.customer)!
    const applied = discountFor(sub, subtotal, period.start)
    const taxable = subtotal - applied.reduce((sum, d) => sum + d.amount, 0)
    // Stripe Tax stand-in, as the Checkout Session's (fake-stripe.ts): 20 % on top when the subscription has it.
    const tax = sub.automatic_tax.enabled ? Math.round(taxable * 0.2) : 0
    const amount = taxable + tax
    const paid = amount === 0 || !customer.failPayments
    const inv: FakeInvoice = {
      id: id('in'),
      object: 'invoice',
      customer: sub.customer,
      status: paid ? 'paid' : 'open',
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      subtotal,
      total: amount,
      total_discount_amounts: applied,
      discounts: applied.map((d) => d.discount),
      total_taxes: tax
        ? [{ amount: tax, tax_behavior: 'exclusive', taxable_amount: taxable, type: 'tax_rate_details' }]
        : [],
      currency: sub.items.data[0]!.price.currency,
      billing_reason: reason,
      hosted_invoice_url: `${baseUrl()}/invoice/${sub.id}`,
      period_start: period.start,
      period_end: period.start,
      created: now,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } },
      },
      lines: { object: 'list', data: [{ amount: subtotal, description: reason, period }] },
      status_transitions: { paid_at: paid ? now : null },
    }
    invoices.set(inv.id, inv)
    sub.latest_invoice = inv.id
    if (paid && amount > 0 && reason !== 'subscription_create') pay(inv)
    return inv
  }

  function emitInvoice(inv: FakeInvoice) {
    emit(inv.status === 'paid' ? 'invoice.paid' : 'invoice.payment_failed', structuredClone(inv), now)
  }

  const billing = {
    customers,
    subscriptions,
    invoices,
    coupons,
    discounts,
    /** A customer for this e-mail (made if new), as Checkout makes one for a plan. */
    customerFor,

    /** DELETE /v1/customers/:id: Stripe cancels the customer's subscriptions at once; false for an unknown id. */
    deleteCustomer(customerId: string): boolean {
      if (!customers.has(customerId)) return false
      for (const sub of [...subscriptions.values()].filter((s) => s.customer === customerId)) {
        if (!['canceled', 'incomplete_expired'].includes(sub.status)) billing.cancelNow(sub.id)
      }
      customers.delete(customerId)
      return true
    },

    /** POST /v1/coupons: an error message for what Stripe refuses. */
    createCoupon(params: Record<string, Loose>): FakeCoupon | string {
      const duration = params.duration ?? 'once'
      if (!['once', 'repeating', 'forever'].includes(duration)) return `Invalid duration: ${duration}`
      const amountOff = params.amount_off !== undefined ? Number(params.amount_off) : null
      const percentOff = params.percent_off !== undefined ? Number(params.percent_off) : null
      if ((amountOff === null) === (percentOff === null)) return 'Coupons require either amount_off or percent_off.'
      if (amountOff !== null && (!Number.isInteger(amountOff) || amountOff <= 0 || !params.currency))
        return 'amount_off must be a positive integer with a currency.'
      if (percentOff !== null && !(percentOff > 0 && percentOff <= 100)) return 'percent_off must be in (0, 100].'
      const months = params.duration_in_months !== undefined ? Number(params.duration_in_months) : null
      if ((duration === 'repeating') !== (months !== null) || (months !== null && !(months >= 1)))
        return 'duration_in_months is required for, and only for, a repeating coupon.'
      const coupon: FakeCoupon = {
        id: params.id ?? id('coupon'),
        object: 'coupon',
        amount_off: amountOff,
        percent_off: percentOff,
        currency: params.currency ?? null,
        duration,
        duration_in_months: months,
        max_redemptions: params.max_redemptions ? Number(params.max_redemptions) : null,
        times_redeemed: 0,
        name: params.name ?? null,
        metadata: params.metadata ?? {},
        valid: true,
        created: now,
        livemode: false,
      }
      coupons.set(coupon.id, coupon)
      return coupon
    },
    get now() {
      return now
    },

    /** A subscription-mode Checkout Session was paid: its subscription starts (in its trial when it has one). */
    startFromSession(params: Record<string, Loose>, email: string | null): { subscription: string; customer: string } {
      const customer = customerFor(email)
      const recurring = (params.line_items ?? []).filter((item: Loose) => item.price_data?.recurring)
      const first = recurring[0]?.price_data ?? {}
      const interval = (first.recurring?.interval ?? 'month') as 'month' | 'year'
      const amount = recurring.reduce((sum: number, item: Loose) => sum + Number(item.price_data.unit_amount ?? 0), 0)
      const trialDays = Number(params.subscription_data?.trial_period_days ?? 0)
      // A backdated customer's subscription started that long ago (its test clock): the next advance catches up.
      const start = now - customer.backdate
      const trialEnd = trialDays ? start + trialDays * DAY : null
      const periodEnd = trialEnd ?? addInterval(start, interval)
      const sub: FakeSubscription = {
        id: id('sub'),
        object: 'subscription',
        customer: customer.id,
        status: trialEnd ? 'trialing' : 'active',
        created: start,
        start_date: start,
        trial_start: trialEnd ? start : null,
        trial_end: trialEnd,
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        ended_at: null,
        cancellation_details: { reason: null, comment: null },
        metadata: { ...(params.subscription_data?.metadata ?? {}) },
        latest_invoice: null,
        discounts: [],
        automatic_tax: { enabled: params.automatic_tax?.enabled === 'true' },
        items: {
          object: 'list',
          data: [
            {
              id: id('si'),
              quantity: 1,
              current_period_start: start,
              current_period_end: periodEnd,
              price: {
                id: id('price'),
                unit_amount: amount,
                currency: first.currency ?? 'usd',
                recurring: { interval },
                product: id('prod'),
              },
            },
          ],
        },
      }
      subscriptions.set(sub.id, sub)
      // The session's coupon becomes the subscription's discount (a repeating one ends N months after it starts).
      const coupon = coupons.get(params.discounts?.[0]?.coupon ?? '')
      if (coupon?.valid) {
        coupon.times_redeemed++
        if (coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions) coupon.valid = false
        const end = coupon.duration === 'repeating' ? addMonths(start, coupon.duration_in_months ?? 1) : null
        const discount: FakeDiscount = {
          id: id('di'),
          object: 'discount',
          coupon: { ...coupon },
          customer: customer.id,
          subscription: sub.id,
          start,
          end,
        }
        discounts.set(discount.id, discount)
        sub.discounts = [discount.id]
      }
      const inv = invoice(sub, trialEnd ? 0 : amount, 'subscription_create', { start, end: periodEnd })
      emit('customer.subscription.created', snapshot(sub), now)
      emitInvoice(inv)
      return { subscription: sub.id, customer: customer.id }
    },

    /** Makes every later charge of this customer (found by e-mail or id) fail, or succeed again. */
    failPayments(emailOrCustomer: string, fail = true) {
      const customer = customers.get(emailOrCustomer) ?? customerFor(emailOrCustomer)
      customer.failPayments = fail
    },

    /** This customer's next subscriptions start `days` ago (as if on a test clock set back that far). */
    backdate(emailOrCustomer: string, days: number) {
      const customer = customers.get(emailOrCustomer) ?? customerFor(emailOrCustomer)
      customer.backdate = days * DAY
    },

    /** The customer updated their card: open invoices are paid now, and their subscriptions are active again. */
    payOpenInvoices(customerId: string) {
      const customer = customers.get(customerId)
      if (customer) customer.failPayments = false
      for (const inv of invoices.values()) {
        if (inv.customer !== customerId || inv.status !== 'open') continue
        inv.status = 'paid'
        inv.amount_paid = inv.amount_due
        inv.status_transitions.paid_at = now
        if (inv.amount_paid > 0 && inv.billing_reason !== 'subscription_create') pay(inv)
        const sub = subscriptions.get(inv.parent.subscription_details.subscription)!
        sub.status = 'active'
        emitInvoice(inv)
        emit('customer.subscription.updated', snapshot(sub), now)
      }
    },

    /**
     * Sets the clock back to the real time, as a new customer's own test clock starts (Stripe's test clocks belong
     * to customers): a test that needs the server's time runs after others moved this shared clock forward. The
     * other customers' next events are still ahead of it, so nothing of theirs runs twice.
     */
    resetClock() {
      now = Math.floor(Date.now() / 1000)
    },

    /** Moves the test clock forward, doing in time order what Stripe does on the way. */
    advance(seconds: number) {
      const target = now + seconds
      for (;;) {
        const next = nextDue(target)
        if (!next) break
        now = Math.max(now, next.at)
        next.run()
      }
      now = target
    },

    retrieve(subId: string) {
      return subscriptions.get(subId)
    },

    update(subId: string, params: Record<string, Loose>) {
      const sub = subscriptions.get(subId)
      if (!sub) return undefined
      if (params.cancel_at_period_end !== undefined) {
        sub.cancel_at_period_end = params.cancel_at_period_end === 'true'
        sub.canceled_at = sub.cancel_at_period_end ? now : null
        sub.cancellation_details.comment = sub.cancel_at_period_end
          ? (params.cancellation_details?.comment ?? null)
          : null
        sub.cancellation_details.reason = sub.cancel_at_period_end ? 'cancellation_requested' : null
      }
      if (params.metadata) sub.metadata = { ...sub.metadata, ...params.metadata }
      let inv: FakeInvoice | null = null
      const change = params.items?.[0]
      if (change?.price_data) {
        const proration = prorate(sub, change.price_data, Number(params.proration_date ?? now))
        const item = sub.items.data[0]!
        item.price = proration.price
        // In a free trial the period is the trial: a new interval starts at its end (Stripe keeps the billing cycle
        // anchor at trial_end and refuses one before it), so the first charge's day does not move.
        if (proration.newPeriod && sub.status !== 'trialing') {
          item.current_period_start = now
          item.current_period_end = proration.newPeriod.end
        }
        if (sub.status !== 'trialing' && proration.amount > 0) {
          inv = invoice(sub, proration.amount, 'subscription_update', {
            start: now,
            end: item.current_period_end,
          })
          if (inv.status === 'open') sub.status = 'past_due'
        }
      }
      emit('customer.subscription.updated', snapshot(sub), now)
      if (inv) emitInvoice(inv)
      return sub
    },

    /** Ends a subscription now (DELETE /v1/subscriptions/:id); Stripe refuses one that already ended. */
    cancelNow(subId: string) {
      const sub = subscriptions.get(subId)
      if (!sub || sub.status === 'canceled') return undefined
      sub.status = 'canceled'
      sub.ended_at = now
      sub.canceled_at = now
      sub.cancellation_details.reason = 'cancellation_requested'
      emit('customer.subscription.deleted', snapshot(sub), now)
      return sub
    },

    /** What changing to `priceData` would charge now (the invoice `always_invoice` would create). */
    preview(subId: string, priceData: Loose, prorationDate: number) {
      const sub = subscriptions.get(subId)
      if (!sub) return undefined
      const proration = prorate(sub, priceData, prorationDate)
      const amount = sub.status === 'trialing' ? 0 : Math.max(0, proration.amount)
      const item = sub.items.data[0]!
      return {
        id: `upcoming_${sub.id}`,
        object: 'invoice',
        customer: sub.customer,
        currency: item.price.currency,
        amount_due: amount,
        total: amount,
        subtotal: proration.amount,
        parent: {
          type: 'subscription_details',
          subscription_details: {
            subscription: sub.id,
            metadata: sub.metadata,
            subscription_proration_date: prorationDate,
          },
        },
        lines: {
          object: 'list',
          data: [
            {
              amount: proration.amount,
              description: 'Proration',
              period: { start: now, end: item.current_period_end },
            },
          ],
        },
      }
    },

    createProduct(params: Record<string, Loose>) {
      const productId = params.id ?? id('prod')
      if (products.has(productId)) return undefined
      const product = { id: productId, object: 'product', name: params.name ?? productId }
      products.set(productId, product)
      return product
    },

    createPortalSession(params: Record<string, Loose>) {
      const session = { id: id('bps'), customer: params.customer, return_url: params.return_url ?? baseUrl() }
      portalSessions.set(session.id, session)
      return { ...session, object: 'billing_portal.session', url: `${baseUrl()}/portal/${session.id}`, livemode: false }
    },

    portalSession(sessionId: string) {
      return portalSessions.get(sessionId)
    },

    invoicesOf(customerId: string) {
      return [...invoices.values()].filter((inv) => inv.customer === customerId)
    },

    /** The customer's subscriptions that have not ended (the portal's Cancel plan ends them now). */
    liveSubscriptionsOf(customerId: string) {
      return [...subscriptions.values()].filter((sub) => sub.customer === customerId && sub.status !== 'canceled')
    },
  }

  /** Credit for the unused time of the old price, charge for the same time at the new one (Stripe's proration). */
  function prorate(sub: FakeSubscription, priceData: Loose, at: number) {
    const item = sub.items.data[0]!
    const interval = (priceData.recurring?.interval ?? item.price.recurring.interval) as 'month' | 'year'
    const price: FakePrice = {
      id: id('price'),
      unit_amount: Number(priceData.unit_amount),
      currency: priceData.currency ?? item.price.currency,
      recurring: { interval },
      product: priceData.product ?? item.price.product,
    }
    const length = item.current_period_end - item.current_period_start
    const left = Math.max(0, item.current_period_end - at)
    const unused = Math.round((item.price.unit_amount * left) / length)
    if (interval !== item.price.recurring.interval) {
      // A new interval restarts the period now: the whole new price, less the unused old time.
      return { price, amount: price.unit_amount - unused, newPeriod: { end: addInterval(at, interval) } }
    }
    const remaining = Math.round((price.unit_amount * left) / length)
    return { price, amount: remaining - unused, newPeriod: null }
  }

  /** The earliest thing Stripe would do before `target`, if any. */
  function nextDue(target: number): { at: number; run: () => void } | null {
    let best: { at: number; run: () => void } | null = null
    const consider = (at: number, run: () => void) => {
      if (at <= target && (!best || at < best.at)) best = { at, run }
    }
    for (const sub of subscriptions.values()) {
      if (sub.status === 'canceled') continue
      const item = sub.items.data[0]!
      if (sub.status === 'trialing' && sub.trial_end && !trialWarned.has(sub.id)) {
        consider(sub.trial_end - 3 * DAY, () => {
          trialWarned.add(sub.id)
          emit('customer.subscription.trial_will_end', snapshot(sub), now)
        })
      }
      consider(item.current_period_end, () => renew(sub))
    }
    return best
  }

  function renew(sub: FakeSubscription) {
    const item = sub.items.data[0]!
    if (sub.cancel_at_period_end || sub.status === 'past_due') {
      sub.status = 'canceled'
      sub.ended_at = item.current_period_end
      if (!sub.cancel_at_period_end) sub.cancellation_details.reason = 'payment_failed'
      emit('customer.subscription.deleted', snapshot(sub), now)
      return
    }
    const start = item.current_period_end
    item.current_period_start = start
    item.current_period_end = addInterval(start, item.price.recurring.interval)
    const inv = invoice(sub, item.price.unit_amount, 'subscription_cycle', { start, end: item.current_period_end })
    sub.status = inv.status === 'paid' ? 'active' : 'past_due'
    emit('customer.subscription.updated', snapshot(sub), now)
    emitInvoice(inv)
  }

  return billing
}

export type FakeBilling = ReturnType<typeof createBilling>
