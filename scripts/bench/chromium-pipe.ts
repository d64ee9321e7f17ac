// Chromium driven over its DevTools protocol pipe (`--remote-debugging-pipe`), with nothing of a test driver's own in
// the page, for `npm run bench:hydration`. Playwright, on every page it drives, enables the Runtime domain (each new
// JavaScript context is reported to it) and creates an isolated world of its own; in a trace of the course page at 4×
// CPU slowdown that is 0.2–0.4 s of the renderer's main thread between the response's first byte and the parser's
// first preload — time a phone without a debugger attached never spends (decision 0077).
import { type ChildProcess, spawn } from 'node:child_process'
import type { Readable, Writable } from 'node:stream'

type Params = Record<string, unknown>
// biome-ignore lint/suspicious/noExplicitAny: the protocol's answers and events are read by name, as the protocol documents them
type Message = any

/** One attached page target: its commands and events. */
export interface PipePage {
  send(method: string, params?: Params): Promise<Message>
  on(event: string, listener: (params: Message) => void): void
  /** Closes the page's browser context (cookies, cache and all). */
  close(): Promise<void>
}

export interface PipeBrowser {
  /** A page in a browser context of its own (an empty cache, no cookies). */
  newPage(): Promise<PipePage>
  close(): void
}

export async function launchChromiumPipe(executablePath: string, args: string[]): Promise<PipeBrowser> {
  const chrome: ChildProcess = spawn(executablePath, [...args, '--remote-debugging-pipe', 'about:blank'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
  })
  const toChrome = chrome.stdio[3] as Writable
  const fromChrome = chrome.stdio[4] as Readable
  const waiting = new Map<number, { resolve(result: Message): void; reject(error: Error): void }>()
  const listeners = new Map<string, ((params: Message) => void)[]>()
  let nextId = 1
  let buffered = ''
  // Messages are JSON, each followed by a NUL byte.
  fromChrome.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8')
    for (let end = buffered.indexOf('\0'); end >= 0; end = buffered.indexOf('\0')) {
      const message = JSON.parse(buffered.slice(0, end)) as Message
      buffered = buffered.slice(end + 1)
      const answer = message.id === undefined ? undefined : waiting.get(message.id)
      if (answer) {
        waiting.delete(message.id)
        if (message.error) answer.reject(new Error(`${message.error.message} (${message.id})`))
        else answer.resolve(message.result)
      } else if (message.method) {
        for (const listener of listeners.get(`${message.sessionId ?? ''} ${message.method}`) ?? [])
          listener(message.params)
      }
    }
  })
  chrome.on('exit', () => {
    for (const { reject } of waiting.values()) reject(new Error('Chromium exited'))
    waiting.clear()
  })
  const send = (method: string, params: Params = {}, sessionId?: string): Promise<Message> => {
    const id = nextId++
    toChrome.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`)
    return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }))
  }
  await send('Browser.getVersion')
  return {
    async newPage() {
      const { browserContextId } = await send('Target.createBrowserContext', { disposeOnDetach: true })
      const { targetId } = await send('Target.createTarget', { url: 'about:blank', browserContextId })
      const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true })
      return {
        send: (method, params) => send(method, params, sessionId),
        on(event, listener) {
          const key = `${sessionId} ${event}`
          listeners.set(key, [...(listeners.get(key) ?? []), listener])
        },
        async close() {
          for (const key of listeners.keys()) if (key.startsWith(`${sessionId} `)) listeners.delete(key)
          await send('Target.disposeBrowserContext', { browserContextId })
        },
      }
    },
    close() {
      chrome.kill()
    },
  }
}
