import { expect, test } from '@playwright/test'
import { expectAccessible, gotoReady } from './helpers'

test.describe('login modal', () => {
  test('opens on /test/login, ignores outside clicks, and 今はしない goes to the top page', async ({
    page,
  }) => {
    await gotoReady(page, '/test/login')
    const modal = page.getByTestId('login-modal')
    await expect(modal).toBeVisible()
    await expect(modal.getByRole('heading', { name: 'ログイン' })).toBeVisible()
    await expect(modal).toContainText('ログインしてください')
    await page.mouse.click(5, 5)
    await page.keyboard.press('Escape')
    await expect(modal).toBeVisible()
    await modal.getByRole('button', { name: '今はしない' }).click()
    await expect(page).toHaveURL(/\/$/)
    await expect(modal).toBeHidden()
  })

  test('ログイン starts the sign-in redirect with the current path', async ({ page }) => {
    await gotoReady(page, '/test/login')
    const request = page.waitForRequest((r) => r.url().includes('/auth/login'))
    await page.getByTestId('login-modal').getByRole('button', { name: 'ログイン' }).click()
    const url = new URL((await request).url())
    expect(url.pathname).toBe('/auth/login')
    expect(url.searchParams.get('returnTo')).toBe('/test/login')
  })
})

test('a modal locks page scrolling and restores the position on close', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 500 })
  await gotoReady(page, '/privacy_policy')
  await page.evaluate(() => window.scrollTo(0, 400))
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(400)
  // The header is sticky, so the menu button is on screen without scrolling.
  await page.getByTestId('menu-button').dispatchEvent('click')
  await expect(page.getByTestId('hamburger-menu')).toBeVisible()
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden')
  await page.mouse.wheel(0, 600)
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('hamburger-menu')).toBeHidden()
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(400)
})

test.describe('snackbar', () => {
  test('auto-closes after its timer', async ({ page }) => {
    await gotoReady(page, '/test/test')
    await page.getByRole('button', { name: 'スナックバー', exact: true }).click()
    const bar = page.getByTestId('snackbar')
    await expect(bar).toBeVisible()
    await expect(bar).toContainText('保存しました')
    await expect(bar).toBeHidden({ timeout: 6_000 })
  })

  test('an error snackbar stays until closed', async ({ page }) => {
    await gotoReady(page, '/test/test')
    await page.getByRole('button', { name: 'エラースナックバー' }).click()
    const bar = page.getByTestId('snackbar')
    await expect(bar).toBeVisible()
    await expect(bar).toHaveAttribute('data-error', 'true')
    await expectAccessible(page)
    await page.waitForTimeout(4_000)
    await expect(bar).toBeVisible()
    await bar.getByRole('button', { name: '閉じる' }).click()
    await expect(bar).toBeHidden()
  })

  test('renders sanitized HTML', async ({ page }) => {
    await gotoReady(page, '/test/test')
    await page.getByRole('button', { name: 'HTMLを含むスナックバー' }).click()
    const bar = page.getByTestId('snackbar')
    await expect(bar.locator('strong')).toHaveText('太字')
    await expect(bar.locator('img')).toHaveCount(0)
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined()
  })
})

test('the loading overlay shows while a key is pending', async ({ page }) => {
  await gotoReady(page, '/test/test')
  // Record the overlay from inside the page as it appears: on a loaded host the test process has seen the
  // click finish more than 1.5 s late, after the key had ended, so polling from here missed it (a flake).
  await page.evaluate(() => {
    const w = window as unknown as { __overlay?: string }
    const observer = new MutationObserver(() => {
      const el = document.querySelector('[data-testid="loading-overlay"][role="status"]')
      if (el?.checkVisibility() && w.__overlay === undefined) w.__overlay = el.textContent ?? ''
    })
    observer.observe(document.body, { childList: true, subtree: true })
  })
  await page.getByRole('button', { name: 'ローディング表示（1.5秒）' }).click()
  const seen = await page.waitForFunction(
    () => (window as unknown as { __overlay?: string }).__overlay,
    null,
    {
      timeout: 7_000,
    },
  )
  expect(await seen.jsonValue()).toContain('読み込み中です')
  await expect(page.getByTestId('loading-overlay')).toBeHidden({ timeout: 5_000 })
})

test('/test/pinia shows the client state', async ({ page }) => {
  await gotoReady(page, '/test/pinia')
  await expect(page.getByTestId('state-loading-keys')).toHaveText('[]')
  await expect(page.getByTestId('state-menu')).toHaveText('false')
  await expect(page.getByTestId('state-snackbar')).toContainText('"icon": "check-circle"')
})
