// How a message leaves: over SMTP (nodemailer) when SMTP_URL is set, else it is printed in full to the terminal
// (and logged) and kept in the outbox.
import type { Log } from '../kernel/log.ts'
import { redactMailText } from '../kernel/redact.ts'
import { printedMail } from './printed.ts'

export interface MailMessage {
  from: string
  to: string
  replyTo?: string
  /** Extra headers (List-Unsubscribe); nodemailer sends them as given. */
  headers?: Record<string, string>
  subject: string
  text: string
  html?: string
  /** A calendar invitation (nodemailer's icalEvent: a text/calendar part with its METHOD, and an .ics file). */
  icalEvent?: { method: string; filename: string; content: string }
}

export interface MailTransport {
  readonly kind: 'smtp' | 'log'
  send(message: MailMessage): Promise<void>
}

/** Where the log transport prints whole messages: the terminal unless a test captures it. */
export interface MailPrinter {
  /** A person reads it (not a log file or a log shipper). */
  isTTY?: boolean
  write(text: string): unknown
}

export function createMailTransport(
  smtpUrl: string | undefined,
  log: Log,
  printer: MailPrinter = process.stdout,
): MailTransport {
  if (!smtpUrl) {
    return {
      kind: 'log',
      async send(message) {
        log.info({ to: message.to, subject: message.subject }, 'mail (no SMTP_URL set; kept in the outbox)')
        // The structured line is for log search; the printed message is for the person at the terminal. Output
        // that goes to a log instead gets the links' tokens and codes redacted (issue 27): /admin/outbox still has them.
        const printed = printedMail(message)
        printer.write(printer.isTTY ? printed : redactMailText(printed))
      },
    }
  }
  // Timeouts keep a dead or silent SMTP server from holding a worker for minutes.
  const url = new URL(smtpUrl)
  for (const [name, ms] of [
    ['connectionTimeout', '10000'],
    ['greetingTimeout', '15000'],
    ['socketTimeout', '20000'],
  ] as const) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, ms)
  }
  // nodemailer is loaded with the first message: a web node that sends none does not carry it (decision 0030).
  let transporter: Promise<{ sendMail(message: MailMessage): Promise<unknown> }> | undefined
  return {
    kind: 'smtp',
    async send(message) {
      transporter ??= import('nodemailer').then((module) => module.default.createTransport(url.toString()))
      await (await transporter).sendMail(message)
    },
  }
}
