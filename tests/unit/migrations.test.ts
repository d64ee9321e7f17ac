import { readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { migrations } from '../../db/migrations/index.ts'

describe('migration index', () => {
  it('lists exactly the migration files of db/migrations, in date order', () => {
    const files = readdirSync(path.resolve('db/migrations'))
      .filter((file) => /^\d{4}_\d{2}_\d{2}_\d{4}_.+\.ts$/.test(file))
      .map((file) => file.replace(/\.ts$/, ''))
      .sort()
    expect(Object.keys(migrations)).toEqual(files)
  })
})
