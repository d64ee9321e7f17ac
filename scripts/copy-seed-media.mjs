// Build step: files the compiled server reads beside itself —
//   the demo lesson videos (dist/server/db/seed/media), where the learning routes read the seed's 'demo/…' videos;
//   the certificate PDF's fonts (dist/server/src-server/learning/fonts), which tsc does not copy.
import { cpSync } from 'node:fs'

cpSync('db/seed/media', 'dist/server/db/seed/media', { recursive: true })
cpSync('src-server/learning/fonts', 'dist/server/src-server/learning/fonts', { recursive: true })
