import { expect, test } from '@playwright/test'
import { expectAccessible, gotoReady } from './helpers'

test('the magazine list leads to an article with its body, tags and related classes', async ({ page }) => {
  await gotoReady(page, '/magazine')
  await expect(page.locator('[data-layout="magazine"]')).toBeVisible()
  await expect(page).toHaveTitle(/記事一覧 \| まなびのたねマガジン$/)
  const first = page.getByTestId('magazine-articles').getByTestId('article-card').first()
  const title = ((await first.getByRole('heading').textContent()) ?? '').trim()
  await first.getByRole('link').click()
  await expect(page).toHaveURL(/\/magazine\/detail\/\d+$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
  await expect(page).toHaveTitle(/\| まなびのたねマガジン$/)
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article')
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}')
  expect(ld).toMatchObject({ '@type': 'Article', headline: title })
  await expect(page.getByTestId('article-lead')).not.toBeEmpty()
  const body = page.getByTestId('article-body')
  await expect(body.locator('p').first()).toBeVisible()
  await expect(body.locator('script, iframe, [onclick]')).toHaveCount(0)
  await expect(page.getByTestId('related-classes').getByTestId('class-card').first()).toBeVisible()
  // Articles to read next: others sharing a tag or the category, each leading to its page.
  const next = page.getByTestId('related-articles').getByTestId('article-card')
  await expect(next.first()).toBeVisible()
  await expect(next.getByRole('heading', { name: title, exact: true })).toHaveCount(0)

  // A tag leads back to the list, filtered by it.
  const tag = page.getByTestId('article-tags').getByRole('link').first()
  const tagText = ((await tag.textContent()) ?? '').replace(/^#/, '')
  await tag.click()
  await expect(page).toHaveURL(/\/magazine\?tag=/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`#${tagText} の記事`)
  await expect(page.getByTestId('magazine-articles').getByRole('heading', { name: title })).toBeVisible()
})

test('the magazine list filters by category and keeps the filter in the URL', async ({ page }) => {
  await gotoReady(page, '/magazine')
  const chip = page.getByTestId('magazine-categories').getByRole('link').nth(1)
  const name = ((await chip.textContent()) ?? '').replace(/\s*\d+$/, '').trim()
  await chip.click()
  await expect(page).toHaveURL(/\/magazine\?category=/)
  await expect(chip).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${name}の記事`)
  const cards = page.getByTestId('magazine-articles').getByTestId('article-card')
  await expect(cards.first()).toBeVisible()
  for (const text of await cards.getByTestId('article-card-category').allTextContents())
    expect(text).toBe(name)

  // A fresh load of the same URL shows the same list; invalid values fall back.
  const url = page.url()
  const titles = await cards.getByRole('heading').allTextContents()
  await gotoReady(page, url)
  expect(await cards.getByRole('heading').allTextContents()).toEqual(titles)
  const response = await gotoReady(page, '/magazine?page=zero&tag=')
  expect(response?.status()).toBe(200)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('記事一覧')
})

test('a keyword that matches nothing shows the empty state', async ({ page }) => {
  await gotoReady(page, '/magazine?q=%E3%81%AC%E3%81%AC%E3%81%AC%E3%81%AC')
  await expect(page.getByTestId('magazine-empty')).toBeVisible()
})

test('a magazine page past the last says so and leads back to the first, not to "nothing matched"', async ({
  page,
}) => {
  await gotoReady(page, '/magazine?page=99')
  const past = page.getByTestId('past-last-page')
  await expect(past).toContainText('このページには記事がありません。')
  await expect(page.getByTestId('magazine-empty')).toHaveCount(0)
  await past.getByRole('link', { name: '最初のページへ' }).click()
  await expect(page).toHaveURL(/\/magazine$/)
  await expect(page.getByTestId('magazine-articles')).toBeVisible()
})

test('a missing or malformed article is the magazine 404', async ({ page }) => {
  for (const path of ['/magazine/detail/abc', '/magazine/detail/99999999']) {
    const response = await gotoReady(page, path)
    expect(response?.status(), path).toBe(404)
    await expect(page).toHaveTitle(/お探しのページは見つかりませんでした$/)
    await expect(page.getByRole('link', { name: 'マガジンTOPへ' })).toHaveAttribute('href', '/magazine')
  }
})

test('the magazine list and an article are accessible', async ({ page }) => {
  await gotoReady(page, '/magazine')
  await expectAccessible(page)
  await page.getByTestId('magazine-articles').getByTestId('article-card').first().getByRole('link').click()
  await expect(page).toHaveURL(/\/magazine\/detail\/\d+$/)
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
  // The URL changes before the article has rendered: axe once scanned the page-loading overlay fading in (its
  // message, half transparent, failed the contrast rule).
  await expect(page.getByTestId('article-body')).toBeVisible()
  await expect(page.getByTestId('loading-overlay')).toHaveCount(0)
  await expectAccessible(page)
})
