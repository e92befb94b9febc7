import { test } from '@playwright/test'
import { expectAccessible, gotoReady } from './helpers'

const pages = [
  '/',
  '/class_search',
  '/magazine',
  '/company',
  '/terms_of_service',
  '/privacy_policy',
  '/commercial_transactions',
  '/test/test',
  '/test/pinia',
]

for (const path of pages) {
  test(`axe finds no serious or critical violation on ${path}`, async ({ page }) => {
    await gotoReady(page, path)
    await expectAccessible(page)
  })
}

test('axe finds no serious or critical violation with the menu open', async ({ page }) => {
  await gotoReady(page, '/')
  await page.getByTestId('menu-button').click()
  await page.getByTestId('hamburger-menu').waitFor()
  await expectAccessible(page)
})
