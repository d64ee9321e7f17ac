// The client sets zod's jitless option without importing zod (src-client/lib/zod-config.ts): zod, loaded after it,
// must see the setting, or every parse would probe `new Function` against the Content-Security-Policy.
import { expect, it } from 'vitest'

it('zod loaded after the client config runs jitless', async () => {
  await import('../../src-client/lib/zod-config.ts')
  const { config } = await import('zod/v4/core')
  expect(config().jitless).toBe(true)
})
