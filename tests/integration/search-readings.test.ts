/**
 * Search by reading (issue 16): a query in kana finds classes written in kanji (えいご→英語, すうがく→数学), and
 * katakana ones by hiragana (ぴあの→ピアノ); classes stored before the readings existed get them from the
 * backfill migration.
 */
import { readFileSync } from 'node:fs'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { searchClassWorks } from '../../app/api/services/class-works'
import { classWorks } from '../../app/db/schema'
import { normalizeSearchText } from '../../app/lib/search-normalize'
import { setupApi, type TestApi } from './support/api'

let api: TestApi
beforeAll(async () => {
  api = await setupApi()
})
afterAll(async () => {
  await api?.close()
})

const titlesFor = async (q: string) =>
  (await searchClassWorks(api.db, { q }, api.now)).items.map((c) => `${c.title} ${c.category.name}`)

describe('search by reading', () => {
  it.each([
    ['えいご', '英語'],
    ['すうがく', '数学'],
    ['ぴあの', 'ピアノ'],
  ])('%s finds the classes about %s', async (q, word) => {
    const kana = await searchClassWorks(api.db, { q }, api.now)
    const kanji = await searchClassWorks(api.db, { q: word }, api.now)
    expect(kanji.total).toBeGreaterThan(0)
    // Everything the word finds, its reading finds too (the reading may find a little more: 化学 and 科学).
    expect(kana.total).toBeGreaterThanOrEqual(kanji.total)
    const found = new Set(kana.items.map((c) => c.id))
    for (const c of kanji.items) expect(found.has(c.id) || kana.total > kana.items.length).toBe(true)
    expect((await titlesFor(q)).length).toBeGreaterThan(0)
  })

  it('the backfill migration adds readings to classes stored without them, once', async () => {
    const [target] = await api.db
      .select({ id: classWorks.id, title: classWorks.title })
      .from(classWorks)
      .where(sql`${classWorks.title} like '%英語%'`)
      .limit(1)
    const bare = normalizeSearchText(target!.title)
    await api.db.update(classWorks).set({ searchText: bare }).where(eq(classWorks.id, target!.id))
    const migration = readFileSync(
      new URL('../../app/db/migrations/0014_search_readings.sql', import.meta.url),
      'utf8',
    )
    await api.db.execute(sql.raw(migration))
    const [after] = await api.db
      .select({ t: classWorks.searchText })
      .from(classWorks)
      .where(eq(classWorks.id, target!.id))
    expect(after!.t.startsWith(bare)).toBe(true)
    expect(after!.t).toContain('えいご')
    await api.db.execute(sql.raw(migration))
    const [again] = await api.db
      .select({ t: classWorks.searchText })
      .from(classWorks)
      .where(eq(classWorks.id, target!.id))
    expect(again!.t).toBe(after!.t)
  })
})
