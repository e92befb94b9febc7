import { expect, test } from '@playwright/test'
import { expectAccessible, gotoReady } from './helpers'

const NOT_FOUND_TITLE = /お探しのページは見つかりませんでした$/

test('an unknown path answers 404 with the page-not-found message', async ({ page }) => {
  const response = await gotoReady(page, '/no/such/page')
  expect(response?.status()).toBe(404)
  await expect(page).toHaveTitle(NOT_FOUND_TITLE)
  await expect(page.getByTestId('not-found-message')).toHaveText('Page not found: /no/such/page')
  await expect(page.getByRole('link', { name: 'トップページへ' })).toHaveAttribute('href', '/')
  await expect(page.locator('[data-layout="simple"]')).toBeVisible()
  await expect(page.locator('meta[name=robots]')).toHaveAttribute('content', /noindex/)
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
