// Build step: the demo lesson videos go beside the compiled server (dist/server/db/seed/media), where the learning
// routes read the seed's 'demo/…' videos from.
import { cpSync } from 'node:fs'

cpSync('db/seed/media', 'dist/server/db/seed/media', { recursive: true })
