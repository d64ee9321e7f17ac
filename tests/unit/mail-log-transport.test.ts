// Issue 15: without SMTP_URL a newcomer reads mail in the terminal, so the log transport prints it whole.
import { describe, expect, it } from 'vitest'
import { verificationMail } from '../../src-server/auth/mails.ts'
import { createMailTransport } from '../../src-server/mail/transport.ts'
import { captureLog } from '../support/jobs.ts'

function logTransport({ terminal = true } = {}) {
  const printed: string[] = []
  const { log, entries } = captureLog()
  const printer = { isTTY: terminal, write: (text: string) => printed.push(text) }
  const transport = createMailTransport(undefined, log, printer)
  return { transport, entries, output: () => printed.join('') }
}

describe('the log transport (no SMTP_URL)', () => {
  it('prints a verification mail in full, its link on a line of its own, between rules', async () => {
    const { transport, entries, output } = logTransport()
    const mail = verificationMail('new@example.com', 'http://localhost:3000', 'tok_abc123')
    await transport.send({ from: 'SkillForge <no-reply@skillforge.test>', ...mail })

    expect(transport.kind).toBe('log')
    const lines = output().split('\n')
    expect(lines).toContain('http://localhost:3000/verify-email?token=tok_abc123')
    expect(lines).toContain('To: new@example.com')
    expect(lines).toContain('Subject: Verify your email address')
    expect(output()).toContain(mail.text)
    // Framed: the whole message sits between two lines of dashes.
    const rules = lines.flatMap((line, index) => (/^-{20,}$/.test(line) ? [index] : []))
    expect(rules).toHaveLength(2)
    const link = lines.indexOf('http://localhost:3000/verify-email?token=tok_abc123')
    expect(link).toBeGreaterThan(rules[0]!)
    expect(link).toBeLessThan(rules[1]!)
    // The structured line stays for log search.
    expect(entries).toEqual([
      {
        level: 'info',
        details: { to: 'new@example.com', subject: 'Verify your email address' },
        message: 'mail (no SMTP_URL set; kept in the outbox)',
      },
    ])
  })

  it('redacts the tokens of the links when its output is a log rather than a terminal (issue 27)', async () => {
    const { transport, output } = logTransport({ terminal: false })
    const mail = verificationMail('new@example.com', 'http://localhost:3000', 'tok_abc123')
    await transport.send({ from: 'SkillForge <no-reply@skillforge.test>', ...mail })
    expect(output()).not.toContain('tok_abc123')
    expect(output().split('\n')).toContain('http://localhost:3000/verify-email?token=[redacted]')
    expect(output()).toContain('Subject: Verify your email address')
  })

  it('shows the Reply-To when there is one', async () => {
    const { transport, output } = logTransport()
    await transport.send({
      from: 'SkillForge <no-reply@skillforge.test>',
      to: 'staff@example.com',
      replyTo: 'visitor@example.com',
      subject: 'Contact: hello',
      text: 'Hi there, see https://example.com/a and https://example.com/b',
    })
    const lines = output().split('\n')
    expect(lines).toContain('Reply-To: visitor@example.com')
    expect(output()).toContain('Hi there, see https://example.com/a and https://example.com/b\n')
  })
})
