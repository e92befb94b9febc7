import { expect, type Page, test } from '@playwright/test'
import {
  confirmReservation,
  DEMO_TEACHER_HOURS,
  demoTeacherHour,
  expectAccessible,
  gotoReady,
  lessonDays,
  otherPerson,
  readMail,
  registerNewParent,
  reservationPanel,
  tokyoLocal,
} from './helpers'

/** Reserves the furthest open schedule of the first class that has one; returns the class title. */
async function reserveSomething(page: Page) {
  const res = await page.request.get('/v1/sitemap_entries')
  const ids = ((await res.json()) as { class_works: { id: number }[] }).class_works.map((e) => e.id)
  for (const id of ids) {
    await gotoReady(page, `/class_search/detail/${id}`)
    const panel = await reservationPanel(page)
    const open = page.getByTestId('reservation-schedule').and(page.locator(':enabled'))
    if ((await panel.getByTestId('reservation-attendee').count()) === 0 || (await open.count()) === 0)
      continue
    await open.last().check()
    const title = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').trim()
    await panel.getByTestId('reserve-button').click()
    await confirmReservation(page)
    return title
  }
  throw new Error('no class with an open schedule')
}

test('a parent gets the reservation mail, stops that kind from its footer link, and sees it in the settings', async ({
  page,
  context,
}) => {
  // Registration, a booking and two mails: 84 s in a loaded full run, so 90 s was too close.
  test.setTimeout(150_000)
  const email = await registerNewParent(page, context, 'ゆうき')
  const title = await reserveSomething(page)

  const mail = await readMail(context, email, '予約が確定しました')
  // The mailbox itself (a test page, and the demo's inbox).
  await gotoReady(page, `/test/mailbox?${new URLSearchParams({ to: email })}`)
  await expect(page.getByRole('heading', { level: 1, name: 'メールボックス' })).toBeVisible()
  await expect(page.getByTestId('mailbox-item').filter({ hasText: '予約が確定しました' })).toHaveCount(1)
  await expectAccessible(page)
  expect(mail.subject).toBe(`予約が確定しました：${title}`)
  expect(mail.text).toContain('キャンセル期限')
  const unsubscribe = /https?:\/\/\S+\/unsubscribe\?token=[\w.-]+/.exec(mail.text)?.[0]
  expect(unsubscribe, mail.text).toBeTruthy()

  // The link works without signing in, and asks before it stops anything.
  const stranger = await page.context().browser()!.newContext()
  const visitor = await stranger.newPage()
  await gotoReady(visitor, unsubscribe!.replace(/^https?:\/\/[^/]+/, ''))
  await expect(
    visitor.getByText('「予約の確定・キャンセル」のメールを停止します。よろしいですか？'),
  ).toBeVisible()
  await expectAccessible(visitor)
  await visitor.getByRole('button', { name: '配信を停止する' }).click()
  await expect(visitor.getByRole('status')).toHaveText('「予約の確定・キャンセル」のメールを停止しました。')
  // A forged token is refused.
  await gotoReady(
    visitor,
    unsubscribe!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')).replace(/^https?:\/\/[^/]+/, ''),
  )
  await expect(visitor.getByRole('alert')).toContainText('配信停止のリンクが正しくありません')
  await stranger.close()

  // The member's settings show it off; refunds cannot be switched off; a switch is saved.
  await gotoReady(page, '/profile')
  await page.getByTestId('profile-notifications-link').click()
  await expect(page.getByRole('heading', { level: 1, name: 'メール通知の設定' })).toBeVisible()
  await expect(page.getByRole('switch', { name: /予約の確定・キャンセル/ })).not.toBeChecked()
  await expect(page.getByRole('switch', { name: /お支払い・返金・開催中止/ })).toBeChecked()
  await expect(page.getByRole('switch', { name: /お支払い・返金・開催中止/ })).toBeDisabled()
  const messages = page.getByRole('switch', { name: /新着メッセージ/ })
  await expect(messages).toBeChecked()
  await messages.uncheck()
  await expect(page.getByTestId('snackbar')).toContainText('「新着メッセージ」のメールを停止しました')
  await expectAccessible(page)
  await page.reload()
  await expect(page.getByRole('switch', { name: /新着メッセージ/ })).not.toBeChecked()
})

test('a teacher cancels a lesson: the parent’s open My Page changes without a reload, and the refund mail arrives', async ({
  page,
  context,
  browser,
}, testInfo) => {
  test.setTimeout(120_000)
  const title = `E2E休講テスト ${testInfo.project.name} ${Date.now().toString(36)}`
  const email = await registerNewParent(page, context, 'あおい')

  // The demo teacher publishes a class with one schedule.
  const teacher = await otherPerson(browser, page, 'teacher@manabi.example', '/class_management/create')
  const form = teacher.getByTestId('class-form')
  await form.getByLabel('タイトル').fill(title)
  await form.getByLabel('カテゴリー').selectOption({ index: 1 })
  await form.getByLabel('説明').fill('休講のお知らせが届くことを確かめるクラスです。')
  await form.getByLabel('クラスの形式').selectOption({ index: 1 })
  await form.getByRole('checkbox').first().check()
  await form.getByLabel('料金（円）').fill('1500')
  await form.getByLabel('定員（人）').fill('3')
  await form.getByLabel('時間（分）').fill('60')
  await teacher.getByTestId('publish-toggle').check()
  await teacher.getByTestId('save-class').click()
  await expect(teacher).toHaveURL(/\/class_management\/edit\/\d+$/)
  const classId = Number(teacher.url().split('/').pop())
  const scheduleForm = teacher.getByTestId('schedule-form').last()
  await scheduleForm
    .getByLabel('開始日時')
    .fill(tokyoLocal(lessonDays(5), demoTeacherHour(DEMO_TEACHER_HOURS.notificationsCancel, testInfo)))
  await scheduleForm.getByTestId('save-schedule').click()
  await expect(teacher.getByTestId('schedule-row')).toHaveCount(1)

  // The parent books it and keeps My Page open.
  await gotoReady(page, `/class_search/detail/${classId}`)
  await (await reservationPanel(page)).getByTestId('reservation-schedule').first().check()
  await page.getByTestId('reserve-button').click()
  await confirmReservation(page)
  await gotoReady(page, '/mypage')
  const lesson = page.getByTestId('mypage-next-lessons').getByText(title)
  await expect(lesson).toBeVisible()
  const account = page.getByTestId('account-button')
  const unread = async () =>
    Number(/未読(\d+)件/.exec((await account.getAttribute('aria-label')) ?? '')?.[1] ?? 0)
  const before = await unread()
  await page.evaluate(() => {
    ;(window as unknown as { __sameDocument: boolean }).__sameDocument = true
  })

  // The teacher cancels the schedule.
  const booked = teacher.getByTestId('schedule-row').filter({ hasText: '予約 1/3席' })
  await expect(booked).toHaveCount(1)
  await booked.getByTestId('cancel-schedule').click()
  await teacher.getByTestId('cancel-schedule-dialog').getByRole('button', { name: '休講にする' }).click()
  const canceledAt = Date.now()
  await expect(teacher.getByTestId('schedule-status').filter({ hasText: '休講' })).toHaveCount(1)

  // Within 2 s, without a reload: the lesson leaves 次の授業 and the 休講 notice raises the unread count.
  await expect(lesson).toBeHidden({ timeout: 2_000 })
  await expect.poll(unread, { timeout: 2_000 }).toBe(before + 1)
  expect(Date.now() - canceledAt).toBeLessThan(4_000)
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(
    true,
  )

  // The refund mail, which no setting can switch off.
  const mail = await readMail(context, email, '【開催中止】')
  expect(mail.subject).toBe(`【開催中止】${title}`)
  expect(mail.text).toContain('返金額：¥1,500')
  expect(mail.text).not.toContain('配信停止')
  await teacher.context().close()
})
