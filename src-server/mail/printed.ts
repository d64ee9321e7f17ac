// A message as the log transport prints it: framed plain text a newcomer can read in the terminal and copy a
// link from (a JSON log line would escape the newlines and bury the body).
import type { MailMessage } from './transport.ts'

const RULE = '-'.repeat(72)

export function printedMail(message: MailMessage): string {
  const headers = [
    `To: ${message.to}`,
    ...(message.replyTo ? [`Reply-To: ${message.replyTo}`] : []),
    ...Object.entries(message.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    `Subject: ${message.subject}`,
  ]
  const body = message.text.endsWith('\n') ? message.text : `${message.text}\n`
  return `\n${RULE}\nMail not sent (no SMTP_URL set); kept in the outbox:\n${headers.join('\n')}\n\n${body}${RULE}\n\n`
}
