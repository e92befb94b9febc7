import { expect, test } from '@playwright/test'
import { login } from './helpers'

/**
 * The class page ships what it paints; the report form, the reservation confirmation, the date-request form and
 * Radix Dialog load when they are first opened (0008). Each script is recognised by a string it carries.
 */
const ON_DEMAND = {
  radixDialog: 'focusScope.autoFocusOnMount',
  reportForm: '運営に通報する',
  reservationConfirm: '予約の確認',
  requestForm: '希望の曜日',
}

test('a class page loads its dialogs on first open; the report dialog opens from the keyboard and gives the focus back', async ({
  page,
}) => {
  const res = await page.request.get('/v1/sitemap_entries')
  const { class_works } = (await res.json()) as { class_works: { id: number }[] }
  const bodies: Promise<string>[] = []
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') bodies.push(r.text().catch(() => ''))
  })
  await login(page, 'parent@manabi.example', `/class_search/detail/${class_works[0]!.id}`)
  await page.waitForLoadState('networkidle')
  const firstLoad = await Promise.all(bodies)
  expect(firstLoad.length).toBeGreaterThan(0)
  for (const [what, marker] of Object.entries(ON_DEMAND))
    expect(
      firstLoad.filter((s) => s.includes(marker)),
      what,
    ).toHaveLength(0)

  const report = page.getByTestId('report-class')
  await report.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByTestId('report-dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('heading', { name: '運営に通報する' })).toBeVisible()
  // Escape closes it and the focus is back on the button that opened it.
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(report).toBeFocused()
  // Once loaded it opens again at once, and やめる closes it the same way.
  await page.keyboard.press('Enter')
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'やめる' }).click()
  await expect(dialog).toBeHidden()
  await expect(report).toBeFocused()
})
