// Environment, read once and validated. A bad value stops start-up with a message naming the variable.

import { z } from 'zod'
import { parseChatHours } from '../../src-shared/live-chat.ts'
import { s3CredentialProblems } from './s3-config.ts'

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value)
const optionalUrl = z.preprocess(emptyAsUndefined, z.url().optional())
const optionalText = z.preprocess(emptyAsUndefined, z.string().min(1).optional())

/**
 * The site's public origin, without a trailing slash, so links built as `${PUBLIC_URL}/verify-email` never get
 * '//'. A path, query or fragment is refused: the app is served from the root of its origin.
 */
const publicBaseUrl = z.preprocess(
  emptyAsUndefined,
  z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .pipe(
      z.string().refine((value) => {
        const url = new URL(value)
        return /^\/*$/.test(url.pathname) && !value.includes('?') && !value.includes('#')
      }, 'must be an origin such as https://shop.example.com, without a path'),
    )
    .transform((value) => new URL(value).origin)
    .optional(),
)

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: publicBaseUrl,
  CLIENT_DIR: z.string().min(1).default('./dist/client'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SMTP_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: z.string().min(3).default('SkillForge <no-reply@skillforge.example>'),
  /**
   * Background jobs (mail, schedules): 'inline' runs the worker inside the server; 'off' makes this a web node
   * that only enqueues, for deployments that run `npm run worker` separately (PostgreSQL only).
   */
  WORKER: z.enum(['inline', 'off']).default('inline'),
  /** ffmpeg for lesson videos' HLS renditions (ffprobe beside it); else found on PATH; absent: videos play as uploaded. */
  FFMPEG_PATH: optionalText,
  /** Days after a delivery the buyer has not answered before the service order completes by itself. */
  SERVICE_ORDER_AUTO_COMPLETE_DAYS: z.coerce.number().int().min(1).max(90).default(3),
  /** Where contact-form messages and staff notices go. */
  STAFF_EMAIL: z.email().default('support@skillforge.example'),
  /** Google and Facebook sign-in (Arctic); a provider without both values shows 'not configured'. */
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  FACEBOOK_CLIENT_ID: optionalText,
  FACEBOOK_CLIENT_SECRET: optionalText,
  /** Rate-limit counters in Redis (shared by several server nodes); in memory when unset. */
  REDIS_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
  ),
  /** S3-compatible object storage for uploads; local disk under DATA_DIR when S3_BUCKET is unset. */
  S3_BUCKET: optionalText,
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_PUBLIC_URL: optionalUrl,
  /** Temporary credentials: the session token that goes with S3_ACCESS_KEY_ID (kernel/s3-config.ts). */
  S3_SESSION_TOKEN: optionalText,
  /** The standard AWS trio, used for the bucket when no S3_* keys are set. */
  AWS_ACCESS_KEY_ID: optionalText,
  AWS_SECRET_ACCESS_KEY: optionalText,
  AWS_SESSION_TOKEN: optionalText,
  /**
   * Trust X-Forwarded-For/-Proto from a reverse proxy: 'true' (any) or comma-separated proxy
   * addresses. Off by default, so a client cannot fake its IP address past the rate limits.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value): boolean | string[] => {
      if (value === 'true' || value === 'false') return value === 'true'
      return value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
    }),
  /**
   * Two-factor sign-in for staff: 'required' (default) sends an admin or owner without a second factor to set one
   * up before any staff screen; 'optional' (demos, tests) leaves it to each person.
   */
  STAFF_2FA: z.enum(['required', 'optional']).default('required'),
  /** 32 bytes, base64: seals TOTP keys at rest with AES-256-GCM (stored as they are when unset; decision 0033). */
  TWO_FACTOR_KEY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine(
        (value) => Buffer.from(value, 'base64').length === 32,
        'must be 32 bytes in base64 (openssl rand -base64 32)',
      )
      .optional(),
  ),
  /** 'loopback' lets a school's OpenID provider be plain http on 127.0.0.1 (tests only; decision 0062). */
  SSO_HTTP_ISSUERS: z.enum(['loopback', 'none']).default('none'),
  /** When live chat is staffed, GMT: "Mon-Fri 09:00-17:00" (the default, as /contact says) or e.g. "Mon-Sun 00:00-24:00". */
  LIVE_CHAT_HOURS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((text) => parseChatHours(text) !== null, 'must read like "Mon-Fri 09:00-17:00"')
      .optional(),
  ),
  /** The first owner (super_admin), created at start-up when both are set and no such account exists. */
  ADMIN_EMAIL: z.preprocess(emptyAsUndefined, z.email().optional()),
  ADMIN_PASSWORD: z.preprocess(emptyAsUndefined, z.string().min(8, 'must be at least 8 characters').optional()),
  /** Seed the demo catalogue when the database is empty (default on; set to false in production if unwanted). */
  SEED_ON_EMPTY: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  /** Largest lesson video an editor may upload, in bytes (default 200 MB). */
  LESSON_VIDEO_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(200 * 1024 * 1024),
  /** Video storage of the Basic and Pro creator plans, in bytes, instead of 10 GB and 100 GB (tests: a small one). */
  CREATOR_STORAGE_LIMIT_BYTES: z.coerce.number().int().min(1).optional(),
  /** Creators' balances per currency below this (minor units) wait for the next monthly payout (default 50.00). */
  PAYOUT_THRESHOLD_MINOR: z.coerce.number().int().min(1).max(100_000_000).default(5000),
  /** The share of each month's Premium revenue net of refunds pooled for creators, in basis points (3000 = 30 %). */
  PREMIUM_POOL_BASIS_POINTS: z.coerce.number().int().min(0).max(10_000).default(3000),
  /**
   * Tests only, never in a real deployment: 'on' lets POST /api/test/clock move the server's clock forward and run
   * the scheduled work that fell due (kernel/clock.ts). Off by default, and the route does not exist when off.
   */
  TEST_CLOCK: z.enum(['on', 'off']).default('off'),
  /**
   * DNS servers for schools' domain checks (decision 0063), e.g. "1.1.1.1, 127.0.0.1:5353"; the system's when unset.
   */
  DNS_SERVERS: z.preprocess(emptyAsUndefined, z.string().max(500).optional()),
  /**
   * Outgoing webhooks to loopback and private addresses: always allowed outside production; 'on' allows them in
   * production too (the end-to-end run's local receiver). Off by default: production refuses them (SSRF).
   */
  WEBHOOKS_ALLOW_PRIVATE: z.enum(['on', 'off']).default('off'),
  /** Stripe: card payments are offered only when a secret key is set. */
  STRIPE_SECRET_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  STRIPE_WEBHOOK_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** The signing secret of a Connect webhook endpoint (connected accounts' events), when it has its own. */
  STRIPE_CONNECT_WEBHOOK_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** Optional Stripe API base (e.g. http://127.0.0.1:12111) so tests and development use a local fake. */
  STRIPE_API_URL: optionalUrl,
  /** Stripe Tax: Checkout computes tax (automatic_tax) and invoices record it; off means tax 0. */
  STRIPE_TAX: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** The seller named on invoices and credit notes. */
  SELLER_NAME: z.string().min(1).default('SkillForge Ltd'),
  SELLER_ADDRESS: z.string().min(1).default('1 Example Street, London EC1A 1AA, United Kingdom'),
  SELLER_COMPANY_NUMBER: optionalText,
  SELLER_VAT_NUMBER: optionalText,
  /** PayPal.me link; the checkout appends the total. PayPal is offered only when set. */
  PAYPAL_ME_URL: optionalUrl,
  BANK_NAME: z.string().min(1).default('Barclays Bank PLC'),
  BANK_ACCOUNT_NAME: z.string().min(1).default('SkillForge Ltd'),
  BANK_ACCOUNT_NUMBER: z.string().min(1).default('12345678'),
  BANK_SORT_CODE: z.string().min(1).default('20-00-00'),
  BANK_ROUTING_NUMBER: z.string().min(1).default('026009593'),
  BANK_SWIFT_CODE: z.string().min(1).default('BARCGB22'),
  ORDER_REFERENCE_PREFIX: z
    .string()
    .regex(/^[A-Z0-9]{2,8}$/, 'must be 2-8 capital letters or digits')
    .default('SF'),
})

export type Env = z.infer<typeof envSchema>

export class EnvError extends Error {}

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source)
  if (parsed.success) {
    const problems = s3CredentialProblems(parsed.data)
    if (!problems.length) return parsed.data
    throw new EnvError(`Invalid environment variables:\n${problems.join('\n')}`)
  }
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
  throw new EnvError(`Invalid environment variables:\n${lines.join('\n')}`)
}
