import { expect, test } from '@playwright/test'
import { expectAccessible, gotoReady, login } from './helpers'

const NOT_FOUND_TITLE = /お探しのページは見つかりませんでした$/

test('an unknown path answers 404 with the page-not-found message', async ({ page }) => {
  const response = await gotoReady(page, '/no/such/page')
  expect(response?.status()).toBe(404)
  await expect(page).toHaveTitle(NOT_FOUND_TITLE)
  await expect(page.getByTestId('not-found-message')).toHaveText('Page not found: /no/such/page')
  await expect(page.getByRole('link', { name: 'トップページへ' })).toHaveAttribute('href', '/')
  await expect(page.locator('[data-layout="simple"]')).toBeVisible()
  await expect(page.locator('meta[name=robots]')).toHaveAttribute('content', /noindex/)
  // Named after itself, not after the home page it falls back to; not indexed, so no canonical address.
  await expect(page.locator('body')).toHaveClass('page-not-found')
  await expect(page.locator('link[rel=canonical]')).toHaveCount(0)
  await expect(page.locator('meta[property="og:url"]')).toHaveCount(0)
})

test('a path that is not valid percent-encoding answers a Japanese 400 page, not a blank one', async ({
  page,
  request,
}) => {
  const raw = await request.get('/%')
  expect(raw.status()).toBe(400)
  expect(raw.headers()['content-type']).toContain('text/html')
  const response = await page.goto('/%E3%81')
  expect(response?.status()).toBe(400)
  // Spec §2's other-error page: its title, 'エラーが発生しました。', the message, a top page link.
  await expect(page).toHaveTitle('エラーが発生しました')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('エラーが発生しました。')
  await expect(page.getByText('ページのアドレスが正しくありません。')).toBeVisible()
  await expect(page.getByRole('link', { name: 'トップページへ' })).toHaveAttribute('href', '/')
})

test('/favicon.ico is an icon, and list pages name their address without a trailing slash', async ({
  page,
  request,
}) => {
  const icon = await request.get('/favicon.ico')
  expect(icon.status()).toBe(200)
  expect(icon.headers()['content-type']).toBe('image/x-icon')
  expect([...(await icon.body()).subarray(0, 4)]).toEqual([0, 0, 1, 0])
  for (const path of ['/class_search', '/magazine']) {
    await gotoReady(page, path)
    await expect(page.locator('link[rel=canonical]')).toHaveAttribute('href', new RegExp(`${path}$`))
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', new RegExp(`${path}$`))
  }
})

test('a class detail 404 links to class search', async ({ page }) => {
  const response = await gotoReady(page, '/class_search/detail/99999999')
  expect(response?.status()).toBe(404)
  await expect(page).toHaveTitle(NOT_FOUND_TITLE)
  await expect(page.getByText('お探しのクラスは見つかりませんでした')).toBeVisible()
  await expect(page.getByRole('link', { name: 'クラスを探すTOPへ' })).toHaveAttribute('href', '/class_search')
})

test('a magazine detail 404 links to the magazine top', async ({ page }) => {
  const response = await gotoReady(page, '/magazine/detail/99999999')
  expect(response?.status()).toBe(404)
  await expect(page).toHaveTitle(NOT_FOUND_TITLE)
  await expect(page.getByText('お探しの記事は見つかりませんでした')).toBeVisible()
  await expect(page.getByRole('link', { name: 'マガジンTOPへ' })).toHaveAttribute('href', '/magazine')
})

test('/test/notfound shows the page-not-found message with 404', async ({ page }) => {
  const response = await gotoReady(page, '/test/notfound')
  expect(response?.status()).toBe(404)
  await expect(page.getByTestId('not-found-message')).toHaveText('Page not found: /test/notfound')
})

test('paths with /private/ redirect permanently without that segment', async ({ page, request }) => {
  const r = await request.get('/private/company', { maxRedirects: 0 })
  expect(r.status()).toBe(301)
  expect(r.headers().location).toBe('/company')
  // Never off the site: slashes doubled after the segment stay one path (was `//evil.example/login`).
  const off = await request.get('/private//evil.example/login', { maxRedirects: 0 })
  expect([off.status(), off.headers().location]).toEqual([301, '/evil.example/login'])
  await page.goto('/private/terms_of_service')
  await expect(page).toHaveURL(/\/terms_of_service$/)
})

test('apple touch icon variants redirect to the one icon, which exists', async ({ request }) => {
  for (const path of ['/apple-touch-icon-precomposed.png', '/apple-touch-icon-180x180.png']) {
    const r = await request.get(path, { maxRedirects: 0 })
    expect(r.status()).toBe(301)
    expect(r.headers().location).toBe('/apple-touch-icon.png')
  }
  const icon = await request.get('/apple-touch-icon.png')
  expect(icon.status()).toBe(200)
  expect(icon.headers()['content-type']).toBe('image/png')
})

test('the 404 page is accessible', async ({ page }) => {
  await gotoReady(page, '/no/such/page')
  await expectAccessible(page)
})

test('a failed read of the member’s deep info: the error page in the simple layout, an error snackbar, then the top page after 3 s @pc-only', async ({
  page,
}) => {
  // The page's data comes from a server function when the browser navigates: that read fails, from the start (a
  // link in view is preloaded once the page is up). An error answer, whose message the snackbar shows.
  await page.route('**/_serverFn/**', (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({ status: 500, contentType: 'text/plain; charset=utf-8', body: '一時的な障害です' })
      : route.continue(),
  )
  await login(page, 'parent@manabi.example', '/mypage')
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
  await page
    .getByRole('navigation', { name: 'ショートカット' })
    .getByRole('link', { name: '基本情報' })
    .click()
  const failedAt = Date.now()
  await expect(page.getByTestId('snackbar')).toContainText('エラーが発生しました。一時的な障害です')
  await expect(page.locator('[data-layout="simple"]')).toBeVisible()
  await expect(page.getByTestId('site-header')).toHaveCount(0)
  await page.unroute('**/_serverFn/**')
  await expect(page).toHaveURL(/\/$/, { timeout: 10_000 })
  expect(Date.now() - failedAt).toBeGreaterThanOrEqual(2_500)
  // The error snackbar stays until closed (spec §4), on the top page in its own layout again.
  await expect(page.getByTestId('snackbar')).toContainText('エラーが発生しました。')
  await expect(page.locator('[data-layout="simple"]')).toHaveCount(0)
})

test('a part of the page whose code fails to load (a deploy replaced it) reloads the page @pc-only', async ({
  page,
}) => {
  await gotoReady(page, '/class_search/detail/7')
  // The reviews' code loads when they come into view (0030); this one is gone.
  await page.route(/\/assets\/reviews-section-[^/]+\.js$/, (route) => route.abort())
  const reloaded = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame())
  await page.getByTestId('reviews-area').scrollIntoViewIfNeeded()
  await reloaded
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
  expect(await page.evaluate(() => sessionStorage.getItem('manabi:chunk-reload-at'))).toMatch(/^\d+$/)
})
