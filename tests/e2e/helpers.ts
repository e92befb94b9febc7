import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, type TestInfo } from '@playwright/test'

export const isPhone = (testInfo: TestInfo) => testInfo.project.name === 'phone'

/** Waits until the client has hydrated (the app-load key is released). */
export async function gotoReady(page: Page, path: string) {
  const response = await page.goto(path)
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
  return response
}

/** axe scan: no serious or critical violation. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    'serious or critical axe violations',
  ).toEqual([])
}

/** Signs in through the embedded provider's test login (IDP_TEST_LOGIN=1 in e2e), landing on returnTo. */
export async function login(page: Page, email: string, returnTo = '/') {
  await page.goto(`/auth/login?${new URLSearchParams({ returnTo, login_hint: email })}`)
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
}
