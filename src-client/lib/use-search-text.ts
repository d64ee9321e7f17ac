// A list page's search box that searches on the server as the user types: the box's own text, sent after a short
// pause (300 ms) once it differs from the search in the address (admin courses, studio courses).
import { useEffect, useRef, useState } from 'react'

/** The box's text and its setter; `search(text)` (undefined for an empty box) goes to page 1 of that search. */
export function useSearchText(current: string | undefined, search: (text: string | undefined) => void) {
  const [text, setText] = useState(current ?? '')
  const latestSearch = useRef(search)
  latestSearch.current = search
  useEffect(() => {
    const timer = setTimeout(() => {
      if ((current ?? '') !== text.trim()) latestSearch.current(text.trim() || undefined)
    }, 300)
    return () => clearTimeout(timer)
  }, [text, current])
  return [text, setText] as const
}
