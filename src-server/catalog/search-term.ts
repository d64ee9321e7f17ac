// How a search term finds courses (decision 0022). The catalogue's search is a case-insensitive substring of the
// title or the instructor. A term of ASCII letters and digits can only occur inside a word, so it is expanded to
// the words that contain it (catalog_search_words, a small table with a trigram index) and the courses are found
// through the GIN index on courses.search_vector: the same matches as ILIKE '%term%', without reading the
// trigram posting lists of the whole catalogue. Any other term (spaces, punctuation, accents) and a term so short
// it is inside too many words keep the trigram ILIKE.
import { sql } from 'kysely'
import type { DB } from '../kernel/db.ts'

/** More words than this and the term is too broad to list: the ILIKE path is as good. */
export const MAX_EXPANDED_WORDS = 200

export type TermMatch = { kind: 'nothing' } | { kind: 'words'; words: string[] } | { kind: 'substring'; search: string }

const WORD_CHARACTERS = /^[a-z0-9]+$/

export async function resolveTerm(db: DB, search: string | undefined): Promise<TermMatch | null> {
  if (!search) return null
  const term = search.toLowerCase()
  if (!WORD_CHARACTERS.test(term)) return { kind: 'substring', search }
  const rows = await db
    .selectFrom('catalog_search_words')
    .select('word')
    .where(sql<boolean>`word like ${`%${term}%`}`)
    .limit(MAX_EXPANDED_WORDS + 1)
    .execute()
  if (rows.length === 0) return { kind: 'nothing' }
  if (rows.length > MAX_EXPANDED_WORDS) return { kind: 'substring', search }
  return { kind: 'words', words: rows.map((row) => row.word) }
}

/** A lexeme quoted for tsquery text ('it''s' style; a backslash escapes too). */
export function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`
}

/**
 * Forgets the search words of `text` that no course's title or instructor carries any more (an erased instructor's
 * former name), with their counts at 0: the word list otherwise only grows, and a name should not outlive its profile.
 */
export async function forgetSearchWordsOf(trx: DB, text: string): Promise<void> {
  const { rows } = await sql<{ word: string }>`
    select unnest(tsvector_to_array(catalog_words(${text}, ''))) as word`.execute(trx)
  for (const { word } of rows) {
    await sql`delete from catalog_search_words where word = ${word} and not exists (
      select 1 from courses where search_vector @@ ${quoteLexeme(word)}::tsquery)`.execute(trx)
    // The facet counts keep a group's row at 0 when its last published course leaves it.
    await sql`delete from catalog_word_counts where word = ${word} and courses = 0`.execute(trx)
  }
}
