/// <reference lib="dom" />
// A server-rendered page shows before its JavaScript has arrived (decision 0030), and its buttons do nothing until
// React has hydrated them. This small script, inlined in the head of every rendered page, keeps an early press from
// being lost: a click on a button (or a form sent without a method of its own) is held, a note says the page is
// still loading, and the root component (src-client/routes/__root.tsx) replays it once the page is interactive.
// What works without JavaScript is left alone: links, and forms with a method the server answers (method="post"
// forms of src-server/http/native-forms.ts, method="get" search and filters).

/** Runs in the browser as compiled (serialised with toString): it may use nothing from outside its own body. */
function holdEarlyClicks() {
  const root = document.documentElement
  let held: HTMLElement | null = null
  let note: HTMLElement | null = null
  let since = 0
  // React gives a node its handlers when it hydrates the node's Suspense boundary, which can come after the root's
  // (a route's code still loading); its props under React's own key say it has them.
  function hydrated(node: Element) {
    return Object.keys(node).some((key) => key.startsWith('__reactProps'))
  }
  // A form the server answers itself: method="post" (native-forms.ts) or a method="get" search.
  function sentByServer(form: HTMLFormElement | null) {
    return !!form && /^(post|get)$/i.test(form.getAttribute('method') ?? '')
  }
  function showNote() {
    if (note) return
    note = document.createElement('div')
    note.setAttribute('role', 'status')
    note.textContent = 'One moment: the page is still loading. Your click will go through as soon as it is ready.'
    const style = note.style
    style.position = 'fixed'
    style.left = '50%'
    style.bottom = '16px'
    style.transform = 'translateX(-50%)'
    style.zIndex = '2147483647'
    style.maxWidth = 'calc(100vw - 32px)'
    style.padding = '10px 16px'
    style.borderRadius = '8px'
    style.background = '#1f2937'
    style.color = '#ffffff'
    style.font = '14px/1.4 system-ui, sans-serif'
    document.body.appendChild(note)
    root.style.cursor = 'progress'
  }
  // Once the app runs, the held press is replayed when its node is hydrated (waiting 10 s at most).
  // A task later, not at once: the press must act on the page re-rendered with a choice made before hydration, which
  // reaches React in the commit that hydrates its select (src-client/components/ui/form.tsx, useEarlyChoice).
  function startReplay() {
    since = Date.now()
    setTimeout(replay, 0)
  }
  function replay() {
    const target = held
    if (target?.isConnected && !hydrated(target) && Date.now() - since < 10_000) {
      setTimeout(replay, 50)
      return
    }
    held = null
    if (note) note.remove()
    note = null
    root.style.cursor = ''
    if (!target?.isConnected) return
    if (target instanceof HTMLFormElement) target.requestSubmit()
    else target.click()
  }
  function hold(target: HTMLElement, event: Event) {
    event.preventDefault()
    event.stopImmediatePropagation()
    const waiting = held !== null
    held = target
    showNote()
    if (!waiting && root.dataset.hydrated === 'true') startReplay()
  }
  document.addEventListener(
    'click',
    (event) => {
      if (!(event.target instanceof Element) || !event.target.closest('#root')) return
      const button = event.target.closest<HTMLElement>('button, input[type=submit], input[type=button], [role=button]')
      if (!button || hydrated(button)) return
      const submits = (button as HTMLButtonElement).type === 'submit'
      if (submits && sentByServer((button as HTMLButtonElement).form)) return
      hold(button, event)
    },
    true,
  )
  // Enter in a field submits its form natively: held too unless the server answers that form.
  document.addEventListener(
    'submit',
    (event) => {
      const form = event.target as HTMLFormElement
      if (!hydrated(form) && !sentByServer(form)) hold(form, event)
    },
    true,
  )
  // Called by the root component once the app runs (src-client/routes/__root.tsx).
  ;(window as { __releaseEarlyClick?: () => void }).__releaseEarlyClick = () => {
    if (held) startReplay()
  }
}

/** The script's source, for the inline script of rendered pages. */
export const HOLD_EARLY_CLICKS_SCRIPT = `(${holdEarlyClicks.toString()})();`
