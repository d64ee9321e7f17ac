// Standard Webhooks secrets: "whsec_" and 32 random bytes in base64, the form the reference libraries take.
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/**
 * The webhook-signature header: one "v1,…" per secret, space-separated, as the specification allows during a
 * rotation (the receiver accepts the message when any of them matches its secret).
 */
export function signatureHeader(secrets: readonly string[], messageId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' ')
}
