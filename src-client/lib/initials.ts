import { INITIALS_MAX } from '#shared/constants.ts'

/** Up to two initials (spec §9): the first letters of the name's words, else the fallback's (an e-mail's) first. */
export function initials(name: string, fallback = ''): string {
  const letters = name
    .split(/\s+/)
    .map((word) => word.charAt(0))
    .join('')
    .toUpperCase()
  return (letters || fallback.charAt(0).toUpperCase()).slice(0, INITIALS_MAX)
}
