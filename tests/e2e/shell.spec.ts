import { expect, test } from '@playwright/test'
import { gotoReady, isPhone } from './helpers'

test('the shell renders with the page title, canonical link and route class', async ({ page }, testInfo) => {
  await gotoReady(page, '/company')
  await expect(page).toHaveTitle(/会社概要 \| まなびのたね$/)
  await expect(page.getByTestId('site-header')).toBeVisible()
  await expect(page.getByTestId('site-footer')).toBeVisible()
  await expect(page.getByRole('heading', { level: 1, name: '会社概要' })).toBeVisible()
  await expect(page.locator('link[rel=canonical]')).toHaveAttribute('href', /\/company$/)
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /会社概要/)
  await expect(page.locator('body')).toHaveClass(/page-company/)
  await expect(page.getByTestId('demo-badge')).toHaveText('デモ環境')
  const bottomNav = page.getByTestId('bottom-nav')
  if (isPhone(testInfo)) await expect(bottomNav).toBeVisible()
  else await expect(bottomNav).toBeHidden()
})

test('the hamburger menu opens and closes on navigation', async ({ page }, testInfo) => {
  await gotoReady(page, '/')
  // A phone's header has no room for the demo badge (0031): the menu says it instead.
  if (isPhone(testInfo)) await expect(page.getByTestId('demo-badge')).toBeHidden()
  else await expect(page.getByTestId('demo-badge')).toBeVisible()
  await page.getByTestId('menu-button').click()
  const menu = page.getByTestId('hamburger-menu')
  await expect(menu).toBeVisible()
  if (isPhone(testInfo)) await expect(menu.getByText('デモ環境')).toBeVisible()
  else await expect(menu.getByText('デモ環境')).toBeHidden()
  await menu.getByRole('link', { name: '利用規約' }).click()
  await expect(page).toHaveURL(/\/terms_of_service$/)
  await expect(menu).toBeHidden()
  await expect(page.getByRole('heading', { level: 1, name: '利用規約' })).toBeVisible()
})

test("client navigation loads each page's chunks without a full reload or a console error", async ({
  page,
}) => {
  // Lazy chunks load without Vite's preload table (docs/decisions/0008): each chunk imports all it needs itself.
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  page.on('pageerror', (e) => errors.push(e.message))
  // /company shares no chunk with the search or the magazine, so both are fetched on the way.
  await gotoReady(page, '/company')
  await page.waitForLoadState('networkidle')
  const documents: string[] = []
  const scripts: string[] = []
  page.on('request', (r) => {
    if (r.resourceType() === 'document') documents.push(r.url())
    if (r.resourceType() === 'script') scripts.push(r.url())
  })
  const menu = page.getByTestId('hamburger-menu')
  for (const [name, url, card] of [
    ['クラスを探す', /\/class_search$/, 'class-card'],
    ['マガジン', /\/magazine$/, 'article-card'],
  ] as const) {
    await page.getByTestId('menu-button').click()
    await menu.getByRole('link', { name, exact: true }).click()
    await expect(page).toHaveURL(url)
    await expect(page.getByTestId(card).first()).toBeVisible()
  }
  expect(documents).toEqual([])
  expect(scripts.length).toBeGreaterThan(0)
  expect(errors).toEqual([])
})

test('the footer lists the legal pages and the external help links', async ({ page }) => {
  await gotoReady(page, '/')
  const footer = page.getByTestId('site-footer')
  for (const name of ['会社概要', '利用規約', 'プライバシーポリシー', '特定商取引法に基づく表記']) {
    await expect(footer.getByRole('link', { name })).toBeVisible()
  }
  for (const name of [
    'ご利用ガイド',
    'よくある質問',
    'キャンセルポリシー',
    '手数料について',
    'お問い合わせ',
  ]) {
    await expect(footer.getByRole('link', { name })).toHaveAttribute('href', /^https:\/\//)
  }
})

test('the page gets scrolled and scroll-end classes', async ({ page }) => {
  await gotoReady(page, '/terms_of_service')
  const html = page.locator('html')
  await expect(html).not.toHaveClass(/(^|\s)scrolled(\s|$)/)
  await page.evaluate(() => window.scrollTo(0, 20))
  await expect(html).toHaveClass(/(^|\s)scrolled(\s|$)/)
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
  await expect(html).toHaveClass(/scroll-end/)
})

test('the commercial transactions page has the fields such a page has', async ({ page }) => {
  await gotoReady(page, '/commercial_transactions')
  for (const term of [
    '販売事業者',
    '運営責任者',
    '所在地',
    '連絡先',
    '販売価格',
    '支払方法',
    '提供時期',
    'キャンセル・返金',
  ]) {
    await expect(page.locator('dt', { hasText: term }).first()).toBeVisible()
  }
})

test('the viewport is device-width on phones and PCs', async ({ page }) => {
  await gotoReady(page, '/')
  await expect(page.locator('meta[name=viewport]')).toHaveAttribute('content', /width=device-width/)
})

test.describe('on a tablet', () => {
  test.use({ userAgent: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Safari/604.1' })
  test('the viewport is fixed to 1200px', async ({ page }) => {
    await gotoReady(page, '/')
    await expect(page.locator('meta[name=viewport]')).toHaveAttribute('content', 'width=1200')
  })
})

test('a message that replaces an open one gets its own time on screen', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
  await gotoReady(page, '/class_search/detail/1')
  const copy = page.getByTestId('share-copy')
  const snackbar = page.getByTestId('snackbar')
  await copy.click()
  await expect(snackbar).toContainText('リンクをコピーしました')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/class_search/detail/1`)
  await page.waitForTimeout(2_000)
  await copy.click()
  // 3.5 s after the first message and 1.5 s after the second (3 s each): only the first one's time is up.
  await page.waitForTimeout(1_500)
  await expect(snackbar).toContainText('リンクをコピーしました', { timeout: 100 })
  await expect(snackbar).toBeHidden({ timeout: 5_000 })
})
