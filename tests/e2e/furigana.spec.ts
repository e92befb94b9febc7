import { expect, type Page, test } from '@playwright/test'
import { gotoReady, registerNewParent, watchErrors } from './helpers'

// Furigana mode (issue 19): the header's 「ふりがな」 switch puts readings over the kanji of class titles and
// descriptions, teachers' introductions and the site's fixed texts; the server renders them (no layout shift, no
// dictionary in the browser); the device remembers it, and a member's profile carries it to other devices.

// Class 2 is 「Python入門 ～タートルで図形を描こう～」 (class 1's title has no kanji).
const CLASS_PAGE = '/class_search/detail/2'

/** The toggle, then the class title with its readings (the readings job may still be reading a fresh database). */
async function turnOn(page: Page) {
  const toggle = page.getByTestId('furigana-toggle')
  await expect(toggle).toHaveAttribute('aria-pressed', 'false')
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-pressed', 'true')
}

async function expectTitleRuby(page: Page) {
  await expect(async () => {
    if ((await page.locator('h1 ruby').count()) === 0) await gotoReady(page, page.url())
    expect(await page.locator('h1 ruby').count()).toBeGreaterThan(0)
  }).toPass({ timeout: 20_000 })
}

/** The sum of layout shifts since the page loaded. */
const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let sum = 0
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & {
            value: number
            hadRecentInput: boolean
          })[])
            if (!e.hadRecentInput) sum += e.value
        }).observe({ type: 'layout-shift', buffered: true })
        setTimeout(() => resolve(sum), 300)
      }),
  )

test('a visitor turns furigana on: the server renders readings over the kanji, the device remembers it', async ({
  page,
}) => {
  const errors = watchErrors(page)
  await gotoReady(page, CLASS_PAGE)
  await expect(page.locator('ruby')).toHaveCount(0)
  const title = (await page.locator('h1').textContent()) ?? ''

  await turnOn(page)
  await expectTitleRuby(page)
  // The readings sit over the kanji only: without them the title reads as before.
  expect(
    await page.locator('h1').evaluate((h) => {
      const copy = h.cloneNode(true) as HTMLElement
      for (const rt of copy.querySelectorAll('rt')) rt.remove()
      return copy.textContent
    }),
  ).toBe(title)
  await expect(page.getByTestId('class-description').locator('ruby').first()).toBeVisible()
  // A fixed text of the page: 「クラスの内容」 with 内容(ないよう).
  await expect(page.locator('#description-heading rt')).toHaveText(['ないよう'])

  // The server's HTML already has them (the first paint has no shift), and it is not for a shared cache.
  const res = await page.request.get(CLASS_PAGE)
  expect(res.headers()['cache-control']).toBe('private, no-store')
  const html = await res.text()
  expect(html).toContain('<rt>ないよう</rt>')
  expect(html).toMatch(/<h1[^>]*>.*<ruby>/)

  await gotoReady(page, CLASS_PAGE)
  await expect(page.getByTestId('furigana-toggle')).toHaveAttribute('aria-pressed', 'true')
  expect(await page.locator('h1 ruby').count()).toBeGreaterThan(0)
  expect(await layoutShift(page)).toBeLessThan(0.05)

  // Other pages: the home page's fixed texts and its cards, a teacher's introduction.
  await gotoReady(page, '/')
  await expect(page.locator('#promise-heading rt')).toHaveText(['やくそく'])
  await expect(page.getByTestId('class-card').locator('h3 ruby').first()).toBeVisible()
  await gotoReady(page, '/teacher/detail/1')
  await expect(page.getByTestId('teacher-introduction').locator('ruby').first()).toBeVisible()

  // Off again: plain text, and a visitor's page is shareable again.
  await page.getByTestId('furigana-toggle').click()
  await expect(page.getByTestId('furigana-toggle')).toHaveAttribute('aria-pressed', 'false')
  await expect(page.locator('ruby')).toHaveCount(0)
  expect((await page.request.get(CLASS_PAGE)).headers()['cache-control']).not.toContain('private')
  expect(errors).toEqual([])
})

test('with furigana on, no page is wider than a 320 px phone @pc-only', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 800 })
  await gotoReady(page, CLASS_PAGE)
  await page.getByTestId('furigana-toggle').click()
  await expect(page.getByTestId('furigana-toggle')).toHaveAttribute('aria-pressed', 'true')
  await expectTitleRuby(page)
  for (const path of [
    '/',
    '/class_search',
    '/class_search?q=英語',
    CLASS_PAGE,
    '/teacher/detail/1',
    '/magazine',
  ]) {
    await gotoReady(page, path)
    const wide = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(wide, `${path} scrolls sideways`).toBeLessThanOrEqual(0)
  }
})

test('a member’s setting follows them to another device', async ({ page, context, browser }) => {
  // A registration and a second device signing in: ~48 s in a loaded full run.
  test.setTimeout(120_000)
  const email = await registerNewParent(page, context, 'ふみ')
  await gotoReady(page, CLASS_PAGE)
  await turnOn(page)
  await expectTitleRuby(page)

  const other = await browser.newContext()
  const phone = await other.newPage()
  await gotoReady(phone, CLASS_PAGE)
  await expect(phone.getByTestId('furigana-toggle')).toHaveAttribute('aria-pressed', 'false')
  // The member signs in there with their password.
  await phone.goto(`/auth/login?returnTo=${encodeURIComponent(CLASS_PAGE)}`)
  await phone.locator('#email').fill(email)
  await phone.locator('#password').fill('manabi-demo-1234')
  await phone.getByRole('button', { name: 'ログイン', exact: true }).click()
  await expect(phone.locator('html')).toHaveAttribute('data-hydrated', 'true')
  await expect(phone.getByTestId('furigana-toggle')).toHaveAttribute('aria-pressed', 'true')
  expect(await phone.locator('h1 ruby').count()).toBeGreaterThan(0)
  await other.close()
})
