import { expect, test } from '@playwright/test'
import {
  expectAccessible,
  fillClassForm,
  gotoReady,
  login,
  otherPerson,
  readMail,
  registerNewParent,
} from './helpers'

/** Trust and safety journeys (issue 15): 本人確認 before publishing, and a report that ends in a suspension. */

const OPERATOR = 'operator@manabi.example'
const TEACHER = 'teacher@manabi.example'
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const png = (name: string) => ({ name, mimeType: 'image/png', buffer: Buffer.from(PNG_1X1, 'base64') })

test('a parent turns on teaching and submits 本人確認; once an operator approves, their class is published with the badge @pc-only', async ({
  page,
  browser,
  context,
}) => {
  test.setTimeout(150_000)
  const nickname = `ゆい${Date.now().toString(36).slice(-4)}`
  const email = await registerNewParent(page, context, nickname)

  // From the profile: 先生として活動する.
  await gotoReady(page, '/profile')
  await expect(page.getByTestId('profile-teaching')).toContainText('本人確認を申請すると')
  await page.getByTestId('profile-teaching-link').click()
  await expect(page.getByRole('heading', { level: 1, name: '先生として活動する' })).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
  await expectAccessible(page)

  // Empty: Japanese errors on every field, nothing stored.
  await page.getByTestId('verification-submit').click()
  await expect(page.getByText('顔写真を選択してください')).toBeVisible()
  await expect(page.getByText('本人確認書類の画像を選択してください')).toBeVisible()

  await page.getByTestId('verification-legal_name').fill(`森 ${nickname}`)
  await page.getByTestId('verification-legal_name_kana').fill('モリ ユイ')
  await page.getByTestId('verification-birth_date').fill('1990-04-01')
  await page.getByTestId('verification-face').setInputFiles(png('face.png'))
  await page.getByTestId('verification-document').setInputFiles(png('license.png'))
  await page.getByTestId('verification-career').fill('小学校で5年間、算数を教えていました。')
  await page.getByTestId('verification-submit').click()
  await expect(page.getByTestId('snackbar')).toContainText('本人確認の申請を受け付けました')
  await expect(page.getByTestId('teaching-pending')).toBeVisible()

  // Before approval a class can be a draft, not published.
  const title = `E2E本人確認クラス ${Date.now().toString(36)}`
  await gotoReady(page, '/class_management/create')
  await fillClassForm(page, {
    title,
    description: '本人確認のあとに公開するクラスです。',
    price: 0,
    capacity: 5,
    minutes: 45,
  })
  await page.getByTestId('publish-toggle').check()
  await page.getByTestId('save-class').click()
  await expect(page.getByText('本人確認が完了するまでクラスを公開できません').first()).toBeVisible()
  await page.getByTestId('publish-toggle').uncheck()
  await page.getByTestId('save-class').click()
  await expect(page).toHaveURL(/\/class_management\/edit\/\d+$/)
  const classId = Number(page.url().split('/').pop())

  // The operator sees the submission, opens the document (audited) and approves.
  const operator = await otherPerson(browser, page, OPERATOR, '/admin/verifications')
  const item = operator.getByTestId('verification').filter({ hasText: nickname })
  await expect(item).toContainText(`森 ${nickname}（モリ ユイ）`)
  await expectAccessible(operator)
  const href = await item.getByTestId('verification-document-link').getAttribute('href')
  const image = await operator.request.get(href!)
  expect(image.status()).toBe(200)
  expect(image.headers()['content-type']).toBe('image/webp')
  expect(image.headers()['cache-control']).toBe('private, no-store')
  // Not for anyone else: the applicant, a visitor.
  expect((await page.request.get(href!)).status()).toBe(404)
  // Rejecting needs a reason, said under the field (not a generic failure); nothing is decided.
  await item.getByTestId('verification-reject').click()
  await expect(item.getByText('却下の理由を入力してください')).toBeVisible()
  // The same list open in a second tab, decided in the first: its refused decision brings the list up to date.
  const second = await operator.context().newPage()
  await gotoReady(second, '/admin/verifications')
  const stale = second.getByTestId('verification').filter({ hasText: nickname })
  await expect(stale).toBeVisible()
  await item.getByTestId('verification-approve').click()
  await expect(operator.getByTestId('snackbar')).toContainText('承認しました')
  await stale.getByTestId('verification-reason').fill('書類が読み取れませんでした')
  await stale.getByTestId('verification-reject').click()
  await expect(second.getByTestId('snackbar')).toBeVisible()
  await expect(stale).toHaveCount(0)
  await gotoReady(operator, '/admin/audit?action=document_access')
  await expect(operator.getByTestId('audit-entry').first()).toContainText('本人確認書類の閲覧')
  // An action the log does not know is dropped (the whole log, no error), as a malformed one is.
  for (const action of ['no_such_action', 'DROP TABLE']) {
    await gotoReady(operator, `/admin/audit?${new URLSearchParams({ action })}`)
    await expect(operator.getByTestId('audit-entry').first()).toBeVisible()
    await expect(
      operator.getByTestId('audit-entry').filter({ hasNotText: '本人確認書類の閲覧' }).first(),
    ).toBeVisible()
  }
  await operator.context().close()

  const mail = await readMail(context, email, '本人確認が完了しました')
  expect(mail.text).toContain('クラスを公開できるようになりました')

  // Now the class is published, and search shows the badge on its card.
  await gotoReady(page, `/class_management/edit/${classId}`)
  await page.getByTestId('publish-toggle').check()
  await page.getByTestId('save-class').click()
  await expect(page.getByTestId('snackbar')).toContainText('クラスを保存しました')
  await gotoReady(page, `/class_search?${new URLSearchParams({ q: title })}`)
  const card = page.getByTestId('class-card').filter({ hasText: title })
  await expect(card.getByTestId('verified-badge')).toHaveText('✓本人確認済み')
  await card.getByRole('link', { name: title }).click()
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  await expect(page.getByTestId('teacher-card').getByTestId('verified-badge')).toBeVisible()
  const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents()
  expect(jsonLd.join('\n')).toContain('EducationalOccupationalCredential')
})

test('a reported message leads to a suspension: the sender is signed out at once and cannot sign in again, until an operator lifts it @pc-only', async ({
  page,
  browser,
  context,
}) => {
  test.setTimeout(150_000)
  const nickname = `そら${Date.now().toString(36).slice(-4)}`
  const senderEmail = await registerNewParent(page, context, nickname)

  // The sender follows the demo teacher and writes to them.
  await gotoReady(page, '/class_search?q=けんた先生')
  await page.getByTestId('class-card').first().getByRole('link').first().click()
  await page.getByTestId('teacher-card').getByRole('link').click()
  await expect(page.getByTestId('teacher-detail')).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
  const teacherId = Number(new URL(page.url()).pathname.split('/').pop())
  await page.getByTestId('follow-button').click()
  await expect(page.getByTestId('follow-button')).toHaveAttribute('aria-pressed', 'true')
  // Saved (not only pressed) before leaving the page: the room needs the follow.
  await expect(page.getByTestId('snackbar')).toContainText('フォローしました')
  await gotoReady(page, `/message?to=${teacherId}`)
  await page.getByTestId('new-room-start').click()
  const text = `レッスン外で会いませんか ${Date.now().toString(36)}`
  await page.getByTestId('room-view').getByTestId('message-input').fill(text)
  await page.getByTestId('room-view').getByTestId('message-send').click()
  await expect(page.getByTestId('snackbar')).toContainText('送信しました')

  // The teacher reports it.
  const teacher = await otherPerson(browser, page, TEACHER, '/message')
  await teacher.getByTestId('room-item').filter({ hasText: nickname }).click()
  const message = teacher.getByTestId('message').filter({ hasText: text })
  await message.getByTestId('report-message').click()
  const dialog = teacher.getByTestId('report-dialog')
  await expect(dialog).toBeVisible()
  await dialog.getByTestId('report-submit').click()
  await expect(dialog.getByText('通報の理由を選んでください')).toBeVisible()
  await dialog.getByLabel('子どもの安全が心配').check()
  await dialog.getByTestId('report-detail').fill('授業の外で会おうと誘われました。')
  await dialog.getByTestId('report-submit').click()
  await expect(teacher.getByTestId('snackbar')).toContainText('通報を受け付けました')
  await teacher.context().close()

  // The operator suspends the sender, with 利用停止中のアカウント seen a moment before (a list kept for 30 s).
  const operator = await otherPerson(browser, page, OPERATOR, '/admin/suspensions')
  await expect(operator.getByRole('heading', { level: 1 })).toBeVisible()
  await operator.getByRole('link', { name: '運営管理' }).click()
  await operator.getByRole('link', { name: /^通報/ }).click()
  const report = operator.getByTestId('report').filter({ hasText: text })
  await expect(report).toContainText('子どもの安全が心配')
  await expect(report).toContainText('授業の外で会おうと誘われました。')
  await expectAccessible(operator)
  await report.getByTestId('report-suspend').click()
  await report.getByTestId('report-suspend-confirm').click()
  await expect(operator.getByTestId('snackbar')).toContainText('アカウントを利用停止しました')
  // Back to that list without a reload: the account is in it.
  await operator.getByRole('link', { name: '運営管理' }).click()
  await operator.getByRole('link', { name: /^利用停止中のアカウント/ }).click()
  await expect(operator.getByTestId('suspension').filter({ hasText: nickname })).toBeVisible()
  await gotoReady(operator, '/admin/audit?action=account_suspend')
  await expect(operator.getByTestId('audit-entry').first()).toContainText('アカウントの利用停止')
  await operator.context().close()

  // The teacher's room with them says why no message can go, instead of a composer every send of which fails.
  const reporter = await otherPerson(browser, page, TEACHER, '/message')
  await reporter.getByTestId('room-item').filter({ hasText: nickname }).click()
  await expect(reporter.getByTestId('cannot-send')).toHaveText(
    'この相手は現在ご利用いただけないため、メッセージを送れません',
  )
  await expect(reporter.getByTestId('message-input')).toHaveCount(0)
  await reporter.context().close()

  // The sender's next request is signed out; signing in again is refused with a Japanese reason.
  await gotoReady(page, '/mypage')
  await expect(page).not.toHaveURL(/\/mypage$/)
  await expect(page.getByTestId('account-button')).toHaveCount(0)
  await login(page, senderEmail, '/mypage')
  await expect(page.getByText('このアカウントは利用を停止しています').first()).toBeVisible()
  await expect(page.getByTestId('account-button')).toHaveCount(0)
  const mail = await readMail(context, senderEmail, 'アカウントの利用を停止しました')
  expect(mail.text).toContain('利用を停止しました')

  // The operator lifts it from 利用停止中のアカウント; the member signs in again and is told by mail.
  const again = await otherPerson(browser, page, OPERATOR, '/admin/suspensions')
  const suspended = again.getByTestId('suspension').filter({ hasText: nickname })
  await expect(suspended).toBeVisible()
  await expectAccessible(again)
  await suspended.getByLabel('解除の理由（運営内だけで見えます）').fill('本人に確認し、誤解とわかりました')
  await suspended.getByTestId('suspension-lift').click()
  await suspended.getByTestId('suspension-lift-confirm').click()
  await expect(again.getByTestId('snackbar')).toContainText('利用停止を解除しました')
  await expect(again.getByTestId('suspension').filter({ hasText: nickname })).toHaveCount(0)
  await gotoReady(again, '/admin/audit?action=account_reinstate')
  await expect(again.getByTestId('audit-entry').first()).toContainText('アカウントの利用停止の解除')
  await again.context().close()
  await login(page, senderEmail, '/mypage')
  await expect(page).toHaveURL(/\/mypage$/)
  await expect(page.getByTestId('account-button')).toBeVisible()
  const lifted = await readMail(context, senderEmail, 'アカウントの利用停止を解除しました')
  expect(lifted.text).toContain('これまでどおりログインしてご利用いただけます')
})

test('a reported class hidden by an operator leaves search and its page answers 410 in Japanese @pc-only', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  // The demo teacher (verified) publishes a class of their own for this test.
  const title = `E2E通報クラス ${Date.now().toString(36)}`
  await login(page, TEACHER, '/class_management/create')
  await fillClassForm(page, {
    title,
    description: '通報のテストに使うクラスです。',
    price: 0,
    capacity: 5,
    minutes: 30,
  })
  await page.getByTestId('publish-toggle').check()
  await page.getByTestId('save-class').click()
  await expect(page).toHaveURL(/\/class_management\/edit\/\d+$/)
  const classId = Number(page.url().split('/').pop())

  // A parent reports it from the class page.
  const parent = await otherPerson(browser, page, 'parent@manabi.example', `/class_search/detail/${classId}`)
  await expect(parent.getByRole('heading', { level: 1, name: title })).toBeVisible()
  await parent.getByTestId('report-class').click()
  await parent.getByTestId('report-dialog').getByLabel('不適切な内容（暴力・性的・差別的な表現など）').check()
  await parent.getByTestId('report-submit').click()
  await expect(parent.getByTestId('snackbar')).toContainText('通報を受け付けました')

  // The operator hides it.
  const operator = await otherPerson(browser, page, OPERATOR, '/admin/reports?kind=class')
  const report = operator.getByTestId('report').filter({ hasText: title })
  // Asked first: nothing is hidden until confirmed.
  await report.getByTestId('report-hide').click()
  await expect(report.getByRole('alert')).toContainText('今後の予約はすべてキャンセル・全額返金されます')
  expect((await parent.request.get(`/class_search/detail/${classId}`)).status()).toBe(200)
  await report.getByTestId('report-hide-confirm').click()
  await expect(operator.getByTestId('snackbar')).toContainText('非表示にしました')
  await operator.context().close()

  // Gone: 410 with a Japanese page, out of search; the teacher cannot republish it.
  const res = await parent.goto(`/class_search/detail/${classId}`)
  expect(res?.status()).toBe(410)
  await expect(
    parent.getByRole('heading', { level: 1, name: 'このページは公開を終了しました' }),
  ).toBeVisible()
  await expect(parent.getByText('このクラスは公開を終了しました')).toBeVisible()
  await gotoReady(parent, `/class_search?${new URLSearchParams({ q: title })}`)
  await expect(parent.getByTestId('class-card').filter({ hasText: title })).toHaveCount(0)
  await parent.context().close()
  await gotoReady(page, `/class_management/edit/${classId}`)
  await page.getByTestId('publish-toggle').check()
  await page.getByTestId('save-class').click()
  await expect(page.getByText('運営が非表示にしたため、公開できません').first()).toBeVisible()
})

test('a report note over 500 characters is named at the field on /admin/reports, and nothing is decided until it fits @pc-only', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  // The parent reports a seeded class (the best rated: the newest may be another test's, hidden or deleted by it).
  await login(page, 'parent@manabi.example', '/class_search?sort=rating')
  await page.getByTestId('class-card').first().getByRole('link').first().click()
  await expect(page).toHaveURL(/\/class_search\/detail\/\d+/)
  const classPath = new URL(page.url()).pathname
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
  await page.getByTestId('report-class').click()
  await page.getByTestId('report-dialog').getByLabel('不適切な内容（暴力・性的・差別的な表現など）').check()
  await page.getByTestId('report-submit').click()
  await expect(page.getByTestId('snackbar')).toContainText('通報を受け付けました')

  const operator = await otherPerson(browser, page, OPERATOR, '/admin/reports?kind=class')
  const report = operator
    .getByTestId('report')
    .filter({ has: operator.locator(`a[href="${classPath}"]`) })
    .first()
  const note = report.getByTestId('report-note')
  await expect(note).toHaveAttribute('maxlength', '500')
  // Past the limit anyway (the attribute taken away): the contract's message at the field, nothing sent.
  await note.evaluate((el) => el.removeAttribute('maxlength'))
  await note.fill('あ'.repeat(501))
  await report.getByTestId('report-dismiss').click()
  await expect(report.getByText('500文字以内で入力してください')).toBeVisible()
  await expect(note).toHaveAttribute('aria-invalid', 'true')
  await report.getByTestId('report-hide').click()
  await expect(report.getByTestId('report-hide-confirm')).toHaveCount(0)
  await expect(operator.getByText('処理できませんでした。時間をおいてもう一度お試しください')).toHaveCount(0)
  await operator.reload()
  await expect(operator.locator('html')).toHaveAttribute('data-hydrated', 'true')
  await expect(
    operator.getByTestId('report').filter({ has: operator.locator(`a[href="${classPath}"]`) }),
  ).not.toHaveCount(0)

  // Within it: dismissed, the note kept.
  const again = operator
    .getByTestId('report')
    .filter({ has: operator.locator(`a[href="${classPath}"]`) })
    .first()
  await again.getByTestId('report-note').fill('あ'.repeat(500))
  await again.getByTestId('report-dismiss').click()
  await expect(operator.getByTestId('snackbar')).toContainText('対応不要にしました')
  await operator.context().close()
})

test('a report’s age on /admin/reports is read by the server’s clock, not by an operator’s device three days ahead @pc-only', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(120_000)
  // A parent of its own: the demo parent's reports (10 an hour) are the other tests'.
  await registerNewParent(page, context, 'とけい')
  await gotoReady(page, '/class_search?sort=rating')
  await page.getByTestId('class-card').first().getByRole('link').first().click()
  await expect(page).toHaveURL(/\/class_search\/detail\/\d+/)
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
  const marker = `時計のずれ ${Math.random().toString(36).slice(2, 8)}`
  await page.getByTestId('report-class').click()
  await page.getByTestId('report-dialog').getByLabel('不適切な内容（暴力・性的・差別的な表現など）').check()
  await page.getByTestId('report-detail').fill(marker)
  await page.getByTestId('report-submit').click()
  await expect(page.getByTestId('snackbar')).toContainText('通報を受け付けました')

  const operator = await otherPerson(browser, page, OPERATOR, '/admin')
  await operator.clock.install({ time: Date.now() + 3 * 24 * 3_600_000 })
  await gotoReady(operator, '/admin/reports?kind=teacher')
  // Rendered on this device (a client-side move to the class reports), and a minute later by its timer.
  await operator.getByRole('navigation', { name: '通報の対象' }).getByRole('link', { name: 'クラス' }).click()
  await expect(operator).toHaveURL(/kind=class/)
  const report = operator.getByTestId('report').filter({ hasText: marker })
  await expect(report).toContainText('（0時間前）')
  await operator.clock.runFor(61_000)
  await expect(report).toContainText('（0時間前）')
  await operator.context().close()
})

test('a reported review is taken down from /admin/reports and leaves the class page @pc-only', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  // A seeded class with reviews by other members: the parent reports the newest one.
  await login(page, 'parent@manabi.example', '/class_search?sort=rating')
  await page.getByTestId('class-card').first().getByRole('link').click()
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  const classPath = new URL(page.url()).pathname
  const reviews = page.getByTestId('reviews')
  await reviews.scrollIntoViewIfNeeded()
  const target = reviews
    .getByTestId('review')
    .filter({ has: page.getByTestId('report-review') })
    .first()
  const text = (await target.locator('p').nth(1).textContent()) ?? ''
  expect(text.length).toBeGreaterThan(0)
  const count = async () =>
    Number(/(\d+)件のレビュー/.exec((await reviews.getByTestId('rating-summary').textContent()) ?? '')?.[1])
  const before = await count()
  expect(before).toBeGreaterThan(0)
  await target.getByTestId('report-review').click()
  await page.getByTestId('report-dialog').getByLabel('不適切な内容（暴力・性的・差別的な表現など）').check()
  await page.getByTestId('report-submit').click()
  await expect(page.getByTestId('snackbar')).toContainText('通報を受け付けました')

  // The operator finds it under レビュー and hides it.
  const operator = await otherPerson(browser, page, OPERATOR, '/admin/reports?kind=review')
  const report = operator.getByTestId('report').filter({ hasText: text }).first()
  await expect(report.getByTestId('report-hide')).toHaveText('レビューを非表示にする')
  await report.getByTestId('report-hide').click()
  await report.getByTestId('report-hide-confirm').click()
  await expect(operator.getByTestId('snackbar')).toContainText('非表示にしました')
  await operator.context().close()

  // One review fewer in the count (seeded comments repeat, so the text alone does not tell).
  await gotoReady(page, classPath)
  await reviews.scrollIntoViewIfNeeded()
  await expect(reviews.getByTestId('review').first()).toBeVisible()
  expect(await count()).toBe(before - 1)
})
