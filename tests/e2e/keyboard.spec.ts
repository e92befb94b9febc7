import { expect, type Locator, type Page, test } from '@playwright/test'
import { gotoReady, login, registerNewParent } from './helpers'

// Keyboard only, as someone who cannot use a mouse: after signing in, every step is Tab, Space and Enter, and
// every control reached shows where the focus is.

/**
 * Presses Tab until one of `target`'s elements has the focus (failing after `max` presses), then checks that the
 * focus can be seen: an outline or a ring on the element or a close ancestor that draws it.
 */
async function tabTo(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab')
    if (await target.evaluateAll((els) => els.includes(document.activeElement as HTMLElement))) {
      const visible = await page.evaluate(() => {
        const shows = (el: Element | null) => {
          if (!el) return false
          const s = getComputedStyle(el)
          return (
            (s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none'
          )
        }
        // The element, or what draws its focus for it: a styled radio's label, a card's frame (a ring on the
        // card while its covering link has the focus).
        let el: Element | null = document.activeElement
        for (let up = 0; el && up < 4; up++, el = el.parentElement) if (shows(el)) return true
        return false
      })
      expect(visible, 'the focused control shows its focus').toBe(true)
      return
    }
  }
  throw new Error(`Tab never reached ${target}`)
}

test.describe('keyboard only @pc-only', () => {
  test('search for a free class, open it and book it', async ({ page, context }) => {
    test.setTimeout(120_000)
    await registerNewParent(page, context, 'けいこ')
    await gotoReady(page, '/class_search')
    await tabTo(page, page.getByPlaceholder('上限'))
    await page.keyboard.type('0')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/price_max=0/)
    // A class with a seat on its next date (journeys running alongside add free classes without dates).
    const cards = page
      .getByTestId('search-results')
      .getByTestId('class-card')
      .filter({ hasText: /残り\d+席/ })
    await expect(cards.first()).toBeVisible()
    await tabTo(page, cards.first().getByRole('link'), 200)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/class_search\/detail\/\d+$/)
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')

    const open = page.getByTestId('reservation-schedule').and(page.locator(':enabled'))
    await tabTo(page, open, 200)
    await page.keyboard.press('Space')
    await expect(page.locator('[data-testid="reservation-schedule"]:focus')).toBeChecked()
    const reserve = page.getByTestId('reserve-button')
    await tabTo(page, reserve)
    await page.keyboard.press('Enter')
    const confirm = page.getByTestId('reservation-confirm')
    await expect(confirm).toBeVisible()
    // Escape closes the dialog and the focus is back on the button that opened it.
    await page.keyboard.press('Escape')
    await expect(confirm).toBeHidden()
    await expect(reserve).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(confirm).toBeVisible()
    await tabTo(page, confirm.getByRole('button', { name: '予約を確定する' }), 10)
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('reservation-done')).toBeVisible()
    await tabTo(page, page.getByTestId('to-attendance'))
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/class_attendance$/)
  })

  test('open a conversation and send a message', async ({ page }) => {
    await login(page, 'parent@manabi.example', '/message')
    await tabTo(page, page.getByTestId('room-item').first())
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/message\?room=\d+$/)
    const room = page.getByTestId('room-view')
    await tabTo(page, room.getByTestId('message-input'))
    const text = `キーボードだけで送ります ${Date.now().toString(36)}`
    await page.keyboard.type(text)
    await tabTo(page, room.getByTestId('message-send'), 10)
    await page.keyboard.press('Enter')
    // The confirmation is announced to screen readers, not only shown: Radix Toast reads it out through a live
    // region of its own (role=status) while the snackbar is open.
    await expect(page.getByTestId('snackbar')).toContainText('送信しました')
    await expect(
      page.locator('[role="status"][aria-live], [aria-live="polite"], [aria-live="assertive"]').filter({
        hasText: '送信しました',
      }),
    ).not.toHaveCount(0)
    await expect(room.getByTestId('message').filter({ hasText: text })).toBeVisible()
  })
})
