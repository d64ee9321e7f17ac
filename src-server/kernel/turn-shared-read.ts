// A read that every caller of the same turn of the event loop shares (issue 37). The first caller schedules the read
// for the end of the turn's I/O (setImmediate); callers later in that turn join it. The read is sent after each of
// them arrived, so it sees everything committed before any of them did, as a read of its own would. A caller that
// comes once the read has been sent starts the next one, never joining a read older than itself. Under load the
// requests a turn holds share one round trip instead of making one each.
export function turnSharedRead<K extends object, T>(read: (key: K) => Promise<T>): (key: K) => Promise<T> {
  const pending = new WeakMap<K, Promise<T>>()
  return (key) => {
    const waiting = pending.get(key)
    if (waiting) return waiting
    const next = new Promise<T>((resolve, reject) => {
      setImmediate(() => {
        pending.delete(key) // sent: whoever asks from now on gets a read of their own turn
        read(key).then(resolve, reject)
      })
    })
    pending.set(key, next)
    return next
  }
}
