// Payment settings from the environment: the Stripe API (or null when card payments are off), the
// webhook secret, the PayPal.me link and the bank details shown for transfers.
import type { Env } from '../kernel/env.ts'
import { createStripeApi, type StripeApi } from './stripe.ts'

/** The account settings; which of them a buyer sees depends on the order's currency (see bank-details.ts). */
export interface BankAccount {
  bankName: string
  accountName: string
  accountNumber: string
  /** UK domestic transfers (GBP). */
  sortCode: string
  /** US domestic transfers (USD). */
  routingNumber: string
  swiftCode: string
}

export interface PaymentsConfig {
  stripe: StripeApi | null
  stripeWebhookSecret: string | null
  /** STRIPE_CONNECT_WEBHOOK_SECRET: a Connect endpoint's own secret; absent, Connect events use the main one. */
  stripeConnectWebhookSecret?: string | null
  /** STRIPE_TAX=true: Checkout computes tax (automatic_tax) and the invoice records it. */
  stripeTax: boolean
  paypalMeUrl: string | null
  bank: BankAccount
  referencePrefix: string
}

type PaymentsEnv = Pick<
  Env,
  | 'STRIPE_SECRET_KEY'
  | 'STRIPE_WEBHOOK_SECRET'
  | 'STRIPE_CONNECT_WEBHOOK_SECRET'
  | 'STRIPE_API_URL'
  | 'STRIPE_TAX'
  | 'PAYPAL_ME_URL'
  | 'BANK_NAME'
  | 'BANK_ACCOUNT_NAME'
  | 'BANK_ACCOUNT_NUMBER'
  | 'BANK_SORT_CODE'
  | 'BANK_ROUTING_NUMBER'
  | 'BANK_SWIFT_CODE'
  | 'ORDER_REFERENCE_PREFIX'
>

export function paymentsFromEnv(env: PaymentsEnv): PaymentsConfig {
  return {
    stripe: env.STRIPE_SECRET_KEY
      ? createStripeApi({ secretKey: env.STRIPE_SECRET_KEY, apiUrl: env.STRIPE_API_URL })
      : null,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET ?? null,
    stripeConnectWebhookSecret: env.STRIPE_CONNECT_WEBHOOK_SECRET ?? null,
    stripeTax: env.STRIPE_TAX,
    paypalMeUrl: env.PAYPAL_ME_URL ?? null,
    bank: {
      bankName: env.BANK_NAME,
      accountName: env.BANK_ACCOUNT_NAME,
      accountNumber: env.BANK_ACCOUNT_NUMBER,
      sortCode: env.BANK_SORT_CODE,
      routingNumber: env.BANK_ROUTING_NUMBER,
      swiftCode: env.BANK_SWIFT_CODE,
    },
    referencePrefix: env.ORDER_REFERENCE_PREFIX,
  }
}

/** No card, no PayPal; demo bank details. What a context without payment settings gets. */
export const defaultPayments: PaymentsConfig = {
  stripe: null,
  stripeWebhookSecret: null,
  stripeTax: false,
  paypalMeUrl: null,
  bank: {
    bankName: 'Barclays Bank PLC',
    accountName: 'SkillForge Ltd',
    accountNumber: '12345678',
    sortCode: '20-00-00',
    routingNumber: '026009593',
    swiftCode: 'BARCGB22',
  },
  referencePrefix: 'SF',
}

/** The payment settings of an app config (card and PayPal off when it has none). */
export function paymentsOf(config: { payments?: PaymentsConfig }): PaymentsConfig {
  return config.payments ?? defaultPayments
}
