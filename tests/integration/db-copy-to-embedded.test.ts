import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../app/db/client'
import { rowsOf } from '../../app/db/rows'
import { openTestDatabase, type TestDatabase } from './support/test-db'

// scripts/db-copy-to-embedded.ts: the embedded database of the 100k benchmark is a copy of the PostgreSQL one.
const pgUrl = process.env.TEST_DATABASE_URL

const countsOf = async (db: Database['db']) => {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`),
  ).map((t) => t.name)
  const counts: Record<string, number> = {}
  for (const name of tables)
    counts[name] = Number(
      rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${sql.identifier(name)}`))[0]
        ?.n,
    )
  return counts
}

describe.skipIf(!pgUrl)('copying a PostgreSQL database into the embedded one', () => {
  let source: TestDatabase
  let dataDir: string
  beforeAll(async () => {
    source = await openTestDatabase()
    dataDir = mkdtempSync(path.join(tmpdir(), 'manabi-copy-'))
  })
  afterAll(async () => {
    await source?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('copies every row, replaces what the folder held, and ids continue after the copied ones', async () => {
    const run = () =>
      spawnSync('npx', ['tsx', 'scripts/db-copy-to-embedded.ts', source.url!], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        encoding: 'utf8',
      })
    // Twice: the second copy replaces the first instead of adding to it.
    for (const attempt of [run(), run()]) expect(attempt.status, attempt.stderr).toBe(0)

    const expected = await countsOf(source.db)
    const copy = await openDatabase({ dataDir })
    try {
      expect(await countsOf(copy.db)).toEqual(expected)
      expect(expected.class_works).toBeGreaterThan(0)
      const [ids] = rowsOf<{ max: number; next: number }>(
        await copy.db.execute(
          sql`select (select max(id) from class_works) as max, nextval(pg_get_serial_sequence('class_works', 'id')) as next`,
        ),
      )
      expect(Number(ids?.next)).toBe(Number(ids?.max) + 1)
    } finally {
      await copy.close()
    }
  })

  it('refuses a source that is not a PostgreSQL URL', () => {
    const r = spawnSync('npx', ['tsx', 'scripts/db-copy-to-embedded.ts', 'not-a-url'], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    })
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('Usage:')
  })
})
