// Substring searches in SQL (`ilike`): one escaping rule for every search box, so none forgets a wildcard.

/** `%text%` with LIKE's wildcards escaped, so a search for '50%' or 'a_b' means that very text. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
