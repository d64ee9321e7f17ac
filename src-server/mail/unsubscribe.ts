// One-click unsubscribe (RFC 8058) for mails a person opted into (a cart reminder) or may stop (course news): the List-Unsubscribe address is
// POSTed to by the mail client with no session and no page in between; a GET (a person following the link) gets a
// page with a button. The address carries an opaque random token whose SHA-256 its owner keeps (never an account
// secret); http/mail-unsubscribe.ts serves it.

export const ONE_CLICK_UNSUBSCRIBE_PATH = '/api/mail/unsubscribe'

/** The body RFC 8058 has the mail client POST, and the header that announces it. */
export const LIST_UNSUBSCRIBE_POST = 'List-Unsubscribe=One-Click'

export function oneClickUnsubscribeUrl(origin: string, token: string): string {
  return `${origin.replace(/\/$/, '')}${ONE_CLICK_UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`
}

/** Whether an outbox row's List-Unsubscribe address takes the one-click POST (older rows point at a page). */
export function takesOneClick(listUnsubscribe: string): boolean {
  try {
    return new URL(listUnsubscribe).pathname === ONE_CLICK_UNSUBSCRIBE_PATH
  } catch {
    return false
  }
}

/** The headers a message with this List-Unsubscribe address carries. */
export function listUnsubscribeHeaders(listUnsubscribe: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${listUnsubscribe}>`,
    ...(takesOneClick(listUnsubscribe) ? { 'List-Unsubscribe-Post': LIST_UNSUBSCRIBE_POST } : {}),
  }
}
