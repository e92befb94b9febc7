import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { freePort } from './helpers'

// Issue 18: no public page's work may grow with the catalogue. A production server on its own embedded database
// answers every public page a visitor lands on with its statement count (QUERY_COUNT_HEADER=1 → X-DB-Queries);
// then 300 more published classes are added (npm run db:seed:scale) and the counts must be the same.

let PORT = 0

function start(dataDir: string): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['scripts/serve.mjs'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      SITE_ORIGIN: `http://localhost:${PORT}`,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      QUERY_COUNT_HEADER: '1',
    },
    stdio: 'ignore',
  })
  return { child, exited: new Promise((resolve) => child.once('exit', resolve)) }
}

async function waitReady(ms = 120_000) {
  const until = Date.now() + ms
  while (Date.now() < until) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/readyz`)).ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error('server did not become ready')
}

/**
 * Waits for the furigana job to read what the start (or the added classes) left unread: when it stores readings it
 * empties the cache of public reads on purpose, and that must not fall between two of the pages counted. It reads
 * in id order, so the newest class is the last.
 */
async function readingsDone(origin: string, newestClassId: number) {
  await expect
    .poll(
      async () => {
        const res = await fetch(`${origin}/v1/furigana?class_ids=${newestClassId}`)
        return Object.keys(((await res.json()) as { texts: object }).texts).length
      },
      { timeout: 60_000, message: 'the readings of the newest class' },
    )
    .toBeGreaterThan(0)
  // The job empties the cache right after its last write.
  await new Promise((r) => setTimeout(r, 500))
}

/**
 * Statements per public page, each page asked once right after the start (so no cache of public reads answers it,
 * and in the same order at both sizes). The search asks a keyword and a price cap no earlier request asked.
 */
async function countPages(round: number): Promise<Record<string, number>> {
  const origin = `http://127.0.0.1:${PORT}`
  const [cls] = await (await fetch(`${origin}/v1/class_works/new_arrivals_by_class?limit=1`)).json()
  const articles = await (await fetch(`${origin}/v1/magazine_articles`)).json()
  const pages: Record<string, string> = {
    home: '/',
    company: '/company',
    search: `/class_search?q=${encodeURIComponent('英語')}&price_max=${9000 + round}`,
    class: `/class_search/detail/${cls.id}`,
    teacher: `/teacher/detail/${cls.teacher.id}`,
    magazine: '/magazine',
    article: `/magazine/detail/${articles.items[0].id}`,
  }
  await readingsDone(origin, cls.id)
  const counts: Record<string, number> = {}
  for (const [name, p] of Object.entries(pages)) {
    const res = await fetch(`${origin}${p}`)
    expect(res.status, p).toBe(200)
    // The first request for each page after the start: every lazy part's code must be on hand for the render
    // (lazyPart, docs/decisions/0032), none left for the browser to render (React's mark on such a boundary).
    expect(await res.text(), `${p}: a part left to the browser`).not.toContain('<!--$!-->')
    counts[name] = Number(res.headers.get('x-db-queries'))
  }
  return counts
}

test.describe('database statements per public page @pc-only', () => {
  test.describe.configure({ timeout: 300_000 })
  const dataDir = mkdtempSync(path.join(tmpdir(), 'manabi-query-count-'))
  let server: ReturnType<typeof start> | undefined
  test.afterAll(() => {
    server?.child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })

  test('do not grow when the catalogue grows by 300 classes', async ({ page }) => {
    PORT = await freePort()
    server = start(dataDir)
    await waitReady()
    const demo = await countPages(1)
    server.child.kill('SIGTERM')
    await server.exited

    const seeded = spawnSync('npx', ['tsx', 'scripts/db-seed-scale.ts', '300'], {
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    })
    expect(seeded.status, seeded.stderr).toBe(0)
    expect(seeded.stdout).toContain('Added 300 classes')

    // A port of the moment again: the one freed at the stop may have been handed to another process meanwhile.
    PORT = await freePort()
    server = start(dataDir)
    await waitReady()
    const larger = await countPages(2)
    console.log(`statements per page, demo → +300 classes: ${JSON.stringify({ demo, larger })}`)
    for (const name of ['home', 'search', 'class', 'teacher', 'magazine', 'article'])
      expect(demo[name], name).toBeGreaterThan(0)
    expect(larger).toEqual(demo)
    const origin = `http://127.0.0.1:${PORT}`

    // A class page that does not exist: the detail's one read and the reviews' one. The reviews' 404 is the answer,
    // not tried again (TanStack Query's retry of it read twice and held the page 1.2 s).
    const missing = await fetch(`${origin}/class_search/detail/999999`)
    expect(missing.status).toBe(404)
    expect(Number(missing.headers.get('x-db-queries'))).toBe(2)

    // Nor the work of rendering one: a teacher's page shows one page of their classes (24) and a pager, however
    // many they have (at 100k classes a demo teacher has thousands, and the page was 17 MB).
    const recent: { teacher: { id: number } }[] = await (
      await fetch(`${origin}/v1/class_works/new_arrivals_by_class?limit=50`)
    ).json()
    const profiles: { id: number; class_work_count: number }[] = await Promise.all(
      [...new Set(recent.map((c) => c.teacher.id))].map(async (id) =>
        (await fetch(`${origin}/v1/teachers/${id}`)).json(),
      ),
    )
    const profile = profiles.sort((a, b) => b.class_work_count - a.class_work_count)[0]!
    const cls = { teacher: { id: profile.id } }
    expect(profile.class_work_count).toBeGreaterThan(24)
    const cardsOn = async (p: string) => {
      const html = await (await fetch(`${origin}${p}`)).text()
      const list = html.match(/data-testid="teacher-classes"[\s\S]*?<\/ul>/)?.[0] ?? ''
      return { cards: (list.match(/<li/g) ?? []).length, pager: html.includes('data-testid="pagination"') }
    }
    expect(await cardsOn(`/teacher/detail/${cls.teacher.id}`)).toEqual({ cards: 24, pager: true })
    const last = Math.ceil(profile.class_work_count / 24)
    expect(await cardsOn(`/teacher/detail/${cls.teacher.id}?page=${last}`)).toEqual({
      cards: profile.class_work_count - (last - 1) * 24,
      pager: true,
    })
    // In the browser, the pager moves to the next 24 without a full reload.
    await page.goto(`${origin}/teacher/detail/${cls.teacher.id}`)
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
    const firstOfPage1 = await page.getByTestId('teacher-classes').locator('li').first().textContent()
    await page.getByRole('link', { name: '2ページ目' }).click()
    await expect(page).toHaveURL(/[?&]page=2/)
    await expect(page.getByTestId('teacher-classes-range')).toContainText('25〜')
    await expect(page.getByTestId('teacher-classes').locator('li')).toHaveCount(
      Math.min(24, profile.class_work_count - 24),
    )
    expect(await page.getByTestId('teacher-classes').locator('li').first().textContent()).not.toBe(
      firstOfPage1,
    )

    // On a phone (390 px) the pager fits the screen: no sideways scrolling, every link of it in view.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${origin}/teacher/detail/${cls.teacher.id}?page=2`)
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
    const pager = page.getByTestId('pagination')
    await pager.scrollIntoViewIfNeeded()
    await expect(pager.getByRole('link', { name: '1ページ目' })).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    for (const link of await pager.getByRole('link').all()) {
      const box = (await link.boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(390)
    }
  })
})
