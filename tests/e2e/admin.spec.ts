import { expect, test } from '@playwright/test'
import { expectAccessible, gotoReady, login, otherPerson } from './helpers'

const OPERATOR = 'operator@manabi.example'

test('a member who is not an operator gets the 404 page at /admin; a visitor is sent to sign in', async ({
  page,
}) => {
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/$|\/\?login=/)
  await expect(page.getByTestId('login-modal')).toBeVisible()
  await login(page, 'teacher@manabi.example', '/')
  const res = await page.goto('/admin/notices')
  expect(res?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'お探しのページは見つかりませんでした' })).toBeVisible()
  await gotoReady(page, '/')
  await page.getByTestId('account-button').click()
  await expect(page.getByTestId('account-menu')).toBeVisible()
  await expect(page.getByTestId('menu-admin')).toHaveCount(0)
})

test('the notices page goes by pages of 200: a page past the last says so and leads back, and a notice written there shows on the first @pc-only', async ({
  page,
}) => {
  await login(page, OPERATOR, '/')
  await gotoReady(page, '/admin/notices?page=2')
  await expect(page.getByRole('heading', { level: 1, name: 'お知らせ' })).toBeVisible()
  // The demo has fewer than 200 notices: the second page is empty, and the first has no next page.
  await expect(page.getByTestId('notices-empty')).toHaveText('このページにお知らせはありません。')
  await page.getByRole('link', { name: '新しいお知らせへ' }).click()
  await expect(page).toHaveURL(/\/admin\/notices$/)
  await expect(page.getByTestId('admin-notice').first()).toBeVisible()
  await expect(page.getByRole('link', { name: /お知らせへ$/ })).toHaveCount(0)

  // A notice written from an older page is shown where it is, on the first page. Scheduled far ahead so
  // that no member sees it, and withdrawn again.
  await gotoReady(page, '/admin/notices?page=2')
  const title = `E2E予約 ${Date.now().toString(36)}`
  const form = page.getByTestId('notice-form')
  await form.getByLabel('タイトル').fill(title)
  await form.getByLabel('本文').fill('ページ送りの確認です。')
  await form.getByLabel('公開日時（空欄ならすぐに公開）').fill('2099-01-01T09:00')
  await page.getByRole('button', { name: '保存する' }).click()
  await expect(page.getByTestId('snackbar')).toContainText('お知らせを予約しました')
  await expect(page).toHaveURL(/\/admin\/notices$/)
  const row = page.getByTestId('admin-notice').filter({ hasText: title })
  await expect(row.getByTestId('notice-state')).toHaveText('予約投稿')
  page.once('dialog', (d) => d.accept())
  await row.getByRole('button', { name: '取り下げる' }).click()
  await expect(row.getByTestId('notice-state')).toHaveText('取り下げ済み')
})

test('an address with a value its page cannot mean shows the page without it, not an error @pc-only', async ({
  page,
}) => {
  await login(page, OPERATOR, '/')
  // Each was a 500 (入力内容に誤りがあります): the raw value reached the loader past validateSearch.
  for (const [path, heading] of [
    ['/admin/notices?page=abc', 'お知らせ'],
    ['/admin/suspensions?page=0', '利用停止中のアカウント'],
    ['/admin/audit?page=abc&actor_id=x', '監査ログ'],
    ['/admin/verifications?status=bogus&page=-1', '本人確認'],
    ['/admin/reports?status=bogus&kind=bogus&page=1.5', '通報'],
    ['/message?room=abc&to=x', 'メッセージ'],
  ] as const) {
    const res = await page.goto(path)
    expect(res?.status(), path).toBe(200)
    await expect(page.getByRole('heading', { level: 1, name: heading }), path).toBeVisible()
  }
  await gotoReady(page, '/admin/notices?page=abc')
  await expect(page.getByTestId('admin-notice').first()).toBeVisible()
})

test('an operator publishes a notice that members read, withdraws it, and finds both in the audit log @pc-only', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000)
  const title = `E2Eお知らせ ${Date.now().toString(36)}`
  await login(page, OPERATOR, '/')
  await page.getByTestId('account-button').click()
  await page.getByTestId('menu-admin').click()
  await expect(page.getByRole('heading', { level: 1, name: '運営管理' })).toBeVisible()
  await expectAccessible(page)
  // The audit log seen once in this visit: after the actions below, it must not be shown from the cache as it was.
  await page.getByRole('link', { name: /運営の操作とログインなどの記録/ }).click()
  await expect(page.getByRole('heading', { level: 1, name: '監査ログ' })).toBeVisible()
  await page.goBack()
  await page.getByRole('link', { name: /作成・予約投稿・取り下げ/ }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'お知らせ' })).toBeVisible()

  // An empty save shows Japanese field errors.
  await page.getByRole('button', { name: '保存する' }).click()
  await expect(page.getByTestId('notice-form').getByText('入力してください').first()).toBeVisible()
  const form = page.getByTestId('notice-form')
  await form.getByLabel('タイトル').fill(title)
  await form
    .getByLabel('本文')
    .fill('**大切な**お知らせです。\n- ひとつめ\n- ふたつめ\n<script>alert(1)</script>')
  await page.getByRole('button', { name: '保存する' }).click()
  await expect(page.getByTestId('snackbar')).toContainText('お知らせを公開しました')
  const row = page.getByTestId('admin-notice').filter({ hasText: title })
  await expect(row.getByTestId('notice-state')).toHaveText('公開中')
  await expectAccessible(page)

  // A parent reads it, with its Markdown rendered safely.
  const parent = await otherPerson(browser, page, 'parent@manabi.example', '/information')
  await parent.getByRole('link', { name: title }).click()
  await expect(parent.getByRole('heading', { level: 1, name: title })).toBeVisible()
  await expect(parent.locator('article strong', { hasText: '大切な' })).toBeVisible()
  await expect(parent.locator('article li')).toHaveCount(2)
  await expect(parent.locator('article script')).toHaveCount(0)

  // Withdrawn: gone for the parent.
  page.once('dialog', (d) => d.accept())
  await row.getByRole('button', { name: '取り下げる' }).click()
  await expect(row.getByTestId('notice-state')).toHaveText('取り下げ済み')
  await gotoReady(parent, '/information')
  await expect(parent.getByRole('link', { name: title })).toHaveCount(0)
  await parent.context().close()

  // The audit log has both actions and the operator's sign-in, without a reload.
  await page.goBack()
  await expect(page.getByRole('heading', { level: 1, name: '運営管理' })).toBeVisible()
  await page.getByRole('link', { name: /運営の操作とログインなどの記録/ }).click()
  await expect(page.getByRole('heading', { level: 1, name: '監査ログ' })).toBeVisible()
  const entries = page.getByTestId('audit-entry')
  await expect(entries.filter({ hasText: 'お知らせの取り下げ' }).first()).toContainText('運営スタッフ')
  await expect(entries.filter({ hasText: 'お知らせの作成' }).first()).toBeVisible()
  await page.getByLabel('操作').selectOption('sign_in')
  await page.getByRole('button', { name: '絞り込む' }).click()
  await expect(page).toHaveURL(/action=sign_in/)
  await expect(entries.first()).toContainText('ログイン')
  await expect(entries.filter({ hasText: 'お知らせの作成' })).toHaveCount(0)
  await expectAccessible(page)
  // A day no calendar has, typed into the address, is left out (not an error page).
  await gotoReady(page, '/admin/audit?from=2026-13-01&to=2026-02-30')
  await expect(page.getByRole('heading', { level: 1, name: '監査ログ' })).toBeVisible()
  await expect(entries.first()).toBeVisible()
})

test('a message sent after the contact warning is held (確認中) until an operator deletes it @pc-only', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000)
  const secret = `インスタは hanako_${Date.now().toString(36)} です`
  await login(page, 'parent@manabi.example', '/message')
  await page.getByTestId('room-item').first().click()
  const room = page.getByTestId('room-view')
  await room.getByTestId('message-input').fill(secret)
  await room.getByTestId('message-send').click()
  await expect(room.getByTestId('contact-warning')).toContainText('運営が確認するまで相手には届きません')
  await room.getByTestId('contact-send-anyway').click()
  await expect(page.getByTestId('snackbar')).toContainText('運営が確認してから相手に届きます')
  const mine = room.getByTestId('message').filter({ hasText: secret })
  await expect(mine.getByTestId('message-held')).toBeVisible()

  const operator = await otherPerson(browser, page, OPERATOR, '/admin/messages')
  const held = operator.getByTestId('held-message').filter({ hasText: secret })
  await expect(held).toContainText('はなこ')
  await expect(held).toContainText('SNSのID')
  await expectAccessible(operator)
  await held.getByRole('button', { name: '削除する' }).click()
  await expect(operator.getByTestId('snackbar')).toContainText('削除しました')
  await expect(held).toHaveCount(0)
  await operator.context().close()

  await page.reload()
  await expect(
    room.getByTestId('message').filter({ hasText: secret }).getByTestId('message-deleted'),
  ).toBeVisible()
})
