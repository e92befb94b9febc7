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

/** Each table's rows, as one digest of their text (UTC, sorted): equal digests are equal rows. */
async function digestsOf(db: Database['db']): Promise<Record<string, { rows: number; md5: string }>> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`)
    const tables = rowsOf<{ name: string }>(
      await tx.execute(sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`),
    ).map((t) => t.name)
    const digests: Record<string, { rows: number; md5: string }> = {}
    for (const name of tables) {
      const [row] = rowsOf<{ rows: number; md5: string }>(
        await tx.execute(
          sql`select count(*)::int as rows, md5(coalesce(string_agg(t::text, E'\n' order by t::text), '')) as md5
              from ${sql.identifier(name)} t`,
        ),
      )
      digests[name] = { rows: Number(row?.rows), md5: String(row?.md5) }
    }
    return digests
  })
}

function copy(from: string, dataDir: string, env: Record<string, string> = {}) {
  return spawnSync('npx', ['tsx', 'scripts/db-copy-to-embedded.ts', from], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ...env },
    encoding: 'utf8',
  })
}

describe.skipIf(!pgUrl)('copying a PostgreSQL database into the embedded one', () => {
  let source: TestDatabase
  let dataDir: string
  let expected: Awaited<ReturnType<typeof digestsOf>>
  beforeAll(async () => {
    source = await openTestDatabase()
    dataDir = mkdtempSync(path.join(tmpdir(), 'manabi-copy-'))
    expected = await digestsOf(source.db)
  })
  afterAll(async () => {
    await source?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('copies every row as it is, in batches, replacing what the folder held; ids continue after the copied ones', async () => {
    // Batches of 200 rows, so that the largest tables take several (the demo has over a thousand rows in some).
    const first = copy(source.url!, dataDir, { COPY_BATCH_ROWS: '200' })
    expect(first.status, first.stderr).toBe(0)
    // A second copy replaces the first instead of adding to it.
    const second = copy(source.url!, dataDir)
    expect(second.status, second.stderr).toBe(0)

    const copied = await openDatabase({ dataDir })
    try {
      expect(await digestsOf(copied.db)).toEqual(expected)
      expect(expected.class_works?.rows).toBeGreaterThan(0)
      expect(Math.max(...Object.values(expected).map((t) => t.rows))).toBeGreaterThan(3 * 200)
      const [ids] = rowsOf<{ max: number; next: number }>(
        await copied.db.execute(
          sql`select (select max(id) from class_works) as max, nextval(pg_get_serial_sequence('class_works', 'id')) as next`,
        ),
      )
      expect(Number(ids?.next)).toBe(Number(ids?.max) + 1)
    } finally {
      await copied.close()
    }
  }, 180_000)

  it('leaves the folder as it was when the copy fails, the folder is in use, or the arguments are bad', async () => {
    const unreachable = new URL(source.url!)
    unreachable.pathname = '/manabi_no_such_database'
    const failed = copy(unreachable.toString(), dataDir)
    expect(failed.status).toBe(1)
    // Without DATA_DIR it would write into the developer's own database: refused.
    const noDir = spawnSync('npx', ['tsx', 'scripts/db-copy-to-embedded.ts', source.url!], {
      env: { ...process.env, DATA_DIR: '', DATABASE_URL: '' },
      encoding: 'utf8',
    })
    expect(noDir.status).toBe(1)
    expect(noDir.stderr).toContain('Usage:')
    expect(copy('not-a-url', dataDir).stderr).toContain('Usage:')

    const kept = await openDatabase({ dataDir })
    try {
      // Two processes on one data folder: while the app holds it, the copy is refused and touches nothing.
      const busy = copy(source.url!, dataDir)
      expect(busy.status).toBe(1)
      expect(busy.stderr).toMatch(/in use by another running app/)
      expect(await digestsOf(kept.db)).toEqual(expected)
    } finally {
      await kept.close()
    }
  })
})
