// Builds a migrated and seeded template database on the PostgreSQL of TEST_DATABASE_URL. Each test file then
// gets `CREATE DATABASE … TEMPLATE` (a fresh copy in ~100 ms). Every run starts from a clean template.
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { migrateToLatest } from '../../db/migrate.ts'
import { seedDatabase } from '../../db/seed/index.ts'
import { openDatabase } from '../../src-server/kernel/db.ts'
import { adminQuery, databaseUrlFor, dropOrphanTestDatabases, TEST_DB_PREFIX } from './postgres-admin.ts'
import './provided.ts'

export default async function setup(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set')
  // One a project (vitest.config.ts has two on PostgreSQL): each project's set-up and tear-down handle its own.
  const templateName = `${TEST_DB_PREFIX}tpl_${process.pid}_${project.name.replace(/\W/g, '_')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await dropOrphanTestDatabases(admin)
    await admin.query(`drop database if exists ${templateName}`)
    await admin.query(`create database ${templateName}`)
  } finally {
    await admin.end()
  }
  const handle = await openDatabase({ databaseUrl: databaseUrlFor(adminUrl, templateName), poolSize: 1 })
  await migrateToLatest(handle.db)
  await seedDatabase(handle.db)
  await handle.close()
  // Marked as a template, it cannot be dropped by another run's orphan clean-up while this run uses it.
  await adminQuery(adminUrl, `alter database ${templateName} is_template true`)
  project.provide('testDb', { kind: 'postgres', adminUrl, templateName })

  return async () => {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    await client.query(`alter database ${templateName} is_template false`).catch(() => undefined)
    await client.query(`drop database if exists ${templateName} with (force)`)
    await client.end()
  }
}
