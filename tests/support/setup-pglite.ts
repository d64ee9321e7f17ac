// Builds one migrated and seeded PGlite database and dumps it; every test file starts from a copy of it.
import { rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { migrateToLatest } from '../../db/migrate.ts'
import { seedDatabase } from '../../db/seed/index.ts'
import { openTestPglite } from './test-pglite.ts'
import './provided.ts'

export default async function setup(project: TestProject) {
  const handle = await openTestPglite()
  await migrateToLatest(handle.db)
  await seedDatabase(handle.db)
  const dump = await handle.pglite!.dumpDataDir('none')
  await handle.close()
  const templateDumpPath = path.join(
    os.tmpdir(),
    `storefront-pglite-template-${process.pid}-${project.name.replace(/\W/g, '_')}.tar`,
  )
  await writeFile(templateDumpPath, Buffer.from(await dump.arrayBuffer()))
  project.provide('testDb', { kind: 'pglite', templateDumpPath })
  return () => rm(templateDumpPath, { force: true })
}
