/**
 * A person's name as every page, mail and document shows it: first and last name, trimmed, or '' when the account has
 * neither (the caller picks the fallback: the e-mail address, "Instructor", a dash).
 */
export function fullName(firstName: string, lastName: string): string {
  return `${firstName} ${lastName}`.trim()
}
