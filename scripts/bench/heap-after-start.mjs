// Loaded into the built server with `--expose-gc --import` by scripts/bench-heap.ts: once the server listens, 300
// catalogue requests, two full collections, then its heap and resident memory on stderr, and it exits.
const port = process.env.PORT
setTimeout(
  async () => {
    for (let i = 0; i < 300; i++) {
      const response = await fetch(`http://127.0.0.1:${port}/trpc/catalog.search?batch=1&input=%7B%220%22%3A%7B%7D%7D`)
      await response.arrayBuffer()
    }
    globalThis.gc()
    globalThis.gc()
    const memory = process.memoryUsage()
    const mib = (bytes) => (bytes / 1048576).toFixed(1)
    console.error(`heap used ${mib(memory.heapUsed)} MiB, resident ${mib(memory.rss)} MiB`)
    process.exit(0)
  },
  Number(process.env.HEAP_PROBE_DELAY_MS ?? 6000),
)
