// PGlite has one session. pglite-socket runs each wire-protocol message under PGlite's *query* lock only, so a
// message arriving while an app transaction (Kysely's PGliteDialect holds PGlite's *transaction* lock) waits
// between two statements runs inside that transaction, and an app query can land inside a socket's BEGIN…COMMIT.
// This facade is what the socket server sees instead of the PGlite instance: a socket message first takes the
// transaction lock and keeps it until the session is idle again (ReadyForQuery 'I'), so the socket's statements
// and the app's transactions never interleave. Only the methods pglite-socket 0.2 calls are offered: a newer
// version calling anything else fails loudly instead of running unguarded.
import type { PGlite } from '@electric-sql/pglite'

const READY_FOR_QUERY = 0x5a // 'Z'
const IDLE = 0x49 // 'I'

/** Holds PGlite's transaction lock across several socket messages. */
class TransactionLease {
  #release: (() => void) | undefined
  constructor(private readonly pglite: PGlite) {}

  get held() {
    return this.#release !== undefined
  }

  async take(): Promise<void> {
    if (this.#release) return
    await new Promise<void>((taken) => {
      void this.pglite._runExclusiveTransaction(
        () =>
          new Promise<void>((release) => {
            this.#release = release
            taken()
          }),
      )
    })
  }

  give(): void {
    const release = this.#release
    this.#release = undefined
    release?.()
  }
}

/** The last six bytes the backend wrote: a ReadyForQuery message is 'Z', int32 length 5 and a status byte. */
class ReplyTail {
  #bytes = new Uint8Array(6)
  #length = 0
  reset() {
    this.#length = 0
  }
  push(chunk: Uint8Array) {
    for (const byte of chunk.length > 6 ? chunk.subarray(chunk.length - 6) : chunk) {
      this.#bytes.copyWithin(0, 1)
      this.#bytes[5] = byte
      this.#length = Math.min(6, this.#length + 1)
    }
  }
  get endsIdle() {
    const b = this.#bytes
    return this.#length === 6 && b[0] === READY_FOR_QUERY && b[1] === 0 && b[2] === 0 && b[3] === 0 && b[4] === 5
      ? b[5] === IDLE
      : false
  }
}

export interface ExclusiveSession {
  readonly waitReady: Promise<void>
  isInTransaction(): boolean
  runExclusive<T>(fn: () => Promise<T>): Promise<T>
  execProtocolRawStream(
    message: Uint8Array,
    options: { syncToFs?: boolean; onRawData: (d: Uint8Array) => void },
  ): Promise<void>
  exec(query: string): Promise<unknown>
  /** Gives the lock back (after the socket server stopped), so the instance can close. */
  release(): void
}

export function exclusiveSession(pglite: PGlite): ExclusiveSession {
  const lease = new TransactionLease(pglite)
  const tail = new ReplyTail()
  return {
    waitReady: pglite.waitReady,
    // While the socket holds the lease its session is mid-exchange: pglite-socket then serves only that client.
    isInTransaction: () => lease.held,
    async runExclusive(fn) {
      await lease.take()
      tail.reset()
      try {
        const result = await pglite.runExclusive(fn)
        if (tail.endsIdle) lease.give()
        return result
      } catch (error) {
        lease.give()
        throw error
      }
    },
    execProtocolRawStream(message, options) {
      return pglite.execProtocolRawStream(message, {
        syncToFs: options.syncToFs,
        onRawData(data) {
          tail.push(data)
          options.onRawData(data)
        },
      })
    },
    // pglite-socket calls exec('ROLLBACK') when a client disconnects mid-transaction. PGlite's own exec() would
    // wait for the lock this session holds, so the rollback goes straight to the backend, then the lock is freed.
    async exec(query) {
      if (!lease.held) return
      try {
        await pglite.runExclusive(async () => {
          await pglite.execProtocolRaw(SYNC)
          await pglite.execProtocolRaw(simpleQuery(query))
        })
      } finally {
        lease.give()
      }
    },
    release: () => lease.give(),
  }
}

const SYNC = new Uint8Array([0x53, 0, 0, 0, 4])

function simpleQuery(text: string): Uint8Array {
  const body = new TextEncoder().encode(`${text}\0`)
  const message = new Uint8Array(5 + body.length)
  message[0] = 0x51 // 'Q'
  new DataView(message.buffer).setInt32(1, 4 + body.length)
  message.set(body, 5)
  return message
}
