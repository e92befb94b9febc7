import { count, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rowsOf } from '../../app/db/rows'
import * as s from '../../app/db/schema'
import { seedIfEmpty } from '../../app/db/seed'
import { TEST_ISSUER } from './support/constants'
import { openTestDatabase, type TestDatabase } from './support/test-db'

let t: TestDatabase
beforeAll(async () => {
  t = await openTestDatabase()
  // An empty database, as a real deployment starts. (The append-only audit log refuses TRUNCATE; the seed writes
  // nothing to it, so it is empty already.)
  const tables = await t.db.execute<{ tablename: string }>(
    sql`select tablename from pg_tables where schemaname = 'public' and tablename <> 'audit_log'`,
  )
  const names = rowsOf<{ tablename: string }>(tables).map((r) => `"${r.tablename}"`)
  await t.db.execute(sql.raw(`TRUNCATE ${names.join(', ')} RESTART IDENTITY CASCADE`))
})
afterAll(async () => {
  await t?.close()
})

describe('seedIfEmpty without demo content (production with Auth0)', () => {
  it('creates the master lists only', async () => {
    expect(
      await seedIfEmpty(t.db, { issuer: TEST_ISSUER, now: new Date(), commissionRate: 0.2, demo: false }),
    ).toBe(true)
    const [categories] = await t.db.select({ n: count() }).from(s.categories)
    const [grades] = await t.db.select({ n: count() }).from(s.targetGrades)
    const [classes] = await t.db.select({ n: count() }).from(s.classWorks)
    const [users] = await t.db.select({ n: count() }).from(s.users)
    expect(categories?.n).toBeGreaterThan(0)
    expect(grades?.n).toBeGreaterThan(0)
    expect(classes?.n).toBe(0)
    expect(users?.n).toBe(0)
  })
  it('does nothing the second time', async () => {
    expect(
      await seedIfEmpty(t.db, { issuer: TEST_ISSUER, now: new Date(), commissionRate: 0.2, demo: false }),
    ).toBe(false)
  })
})
