import { expect, test } from '@playwright/test'
import { expectAccessible, gotoReady, login } from './helpers'

/** Calendar sync (issue 16): a lesson's .ics and Google link, and the private subscription feed on My Page. */

test('a parent adds a lesson to their calendar and subscribes to the feed, which a new URL revokes @pc-only', async ({
  page,
}) => {
  await login(page, 'parent@manabi.example', '/class_attendance')
  const item = page.getByTestId('attendance-item').first()
  const title = (await item.getByTestId('attendance-class').textContent()) ?? ''
  await item.getByTestId('add-to-calendar').locator('summary').click()
  const google = await item.getByTestId('google-calendar-link').getAttribute('href')
  expect(new URL(google!).searchParams.get('text')).toBe(title)
  const ics = await page.request.get((await item.getByTestId('ics-link').getAttribute('href'))!)
  expect(ics.status()).toBe(200)
  expect(ics.headers()['content-type']).toContain('text/calendar')
  const one = await ics.text()
  expect(one).toContain('BEGIN:VEVENT')
  expect(one).toContain('TZID=Asia/Tokyo')

  await gotoReady(page, '/mypage')
  const sync = page.getByTestId('calendar-sync')
  await expect(sync.getByTestId('calendar-url')).toHaveValue(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
  await expectAccessible(page)
  const url = await sync.getByTestId('calendar-url').inputValue()
  // Calendar apps fetch it without our cookies.
  const feed = await page.context().request.fetch(url, { headers: { cookie: '' } })
  expect(feed.status()).toBe(200)
  expect(await feed.text()).toContain('BEGIN:VCALENDAR')

  await sync.getByTestId('calendar-regenerate').click()
  await expect(page.getByTestId('snackbar')).toContainText('前のURLは使えなくなりました')
  await expect(sync.getByTestId('calendar-url')).not.toHaveValue(url)
  expect((await page.request.get(url)).status()).toBe(404)
})
