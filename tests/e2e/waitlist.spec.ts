import { expect, test } from '@playwright/test'
import {
  confirmReservation,
  DEMO_TEACHER_HOURS,
  gotoReady,
  lessonDays,
  otherPerson,
  readMail,
  registerNewParent,
  reservationPanel,
  tokyoLocal,
} from './helpers'

/** キャンセル待ち (issue 16): a seat freed by a cancellation is held for the first in line, live on their page. */

test('a parent joins the waitlist of a full lesson; another cancels; the first gets the seat on the open page and books it @pc-only', async ({
  page,
  browser,
  context,
}) => {
  test.setTimeout(150_000)
  // The demo teacher opens a one-seat class with one lesson in 3 days.
  const title = `E2Eキャンセル待ち ${Date.now().toString(36)}`
  await gotoReady(page, '/')
  const teacher = await otherPerson(browser, page, 'teacher@manabi.example', '/class_management/create')
  const form = teacher.getByTestId('class-form')
  await form.getByLabel('タイトル').fill(title)
  await form.getByLabel('カテゴリー').selectOption({ index: 1 })
  await form.getByLabel('説明').fill('定員1名のクラスです。')
  await form.getByLabel('クラスの形式').selectOption({ index: 1 })
  await form.getByRole('checkbox').first().check()
  await form.getByLabel('料金（円）').fill('0')
  await form.getByLabel('定員（人）').fill('1')
  await form.getByLabel('時間（分）').fill('60')
  await teacher.getByTestId('publish-toggle').check()
  await teacher.getByTestId('save-class').click()
  await expect(teacher).toHaveURL(/\/class_management\/edit\/\d+$/)
  const classId = Number(teacher.url().split('/').pop())
  const scheduleForm = teacher.getByTestId('schedule-form').last()
  await scheduleForm.getByLabel('開始日時').fill(tokyoLocal(lessonDays(3), DEMO_TEACHER_HOURS.waitlist))
  await scheduleForm.getByTestId('save-schedule').click()
  await expect(teacher.getByTestId('schedule-row')).toHaveCount(1)
  await teacher.context().close()

  // The demo parent takes the only seat.
  const first = await otherPerson(browser, page, 'parent@manabi.example', `/class_search/detail/${classId}`)
  await (await reservationPanel(first)).getByTestId('reservation-schedule').first().check()
  await first.getByTestId('reserve-button').click()
  await confirmReservation(first)

  // A new parent finds it full and joins the waitlist.
  const email = await registerNewParent(page, context, 'まつ')
  await gotoReady(page, `/class_search/detail/${classId}`)
  await expect(page.getByTestId('schedule-seats').first()).toHaveText('満席')
  // Signed out since the page loaded (another tab): the button asks them to log in, as booking does.
  const cookies = await context.cookies()
  await context.clearCookies()
  await page.getByTestId('waitlist-join').click()
  await expect(page.getByTestId('login-modal')).toBeVisible()
  // Signed in again (the modal cannot be dismissed on the spot: spec §2).
  await context.addCookies(cookies)
  await gotoReady(page, `/class_search/detail/${classId}`)
  await page.getByTestId('waitlist-join').click()
  await expect(page.getByTestId('snackbar')).toContainText('キャンセル待ちに登録しました（1番目）')
  await expect(page.getByTestId('waitlist-waiting')).toContainText('1番目')

  // The demo parent cancels: the seat is held for the new parent, whose open page shows it.
  await gotoReady(first, '/class_attendance')
  await first.getByTestId('attendance-item').filter({ hasText: title }).getByTestId('cancel-button').click()
  await first.getByTestId('cancel-confirm').getByRole('button', { name: 'キャンセルする' }).click()
  await expect(first.getByTestId('snackbar')).toContainText('予約をキャンセルしました')
  // Nobody else can take it: the demo parent sees it full.
  await gotoReady(first, `/class_search/detail/${classId}`)
  await expect(first.getByTestId('schedule-seats').first()).toHaveText('満席')
  await first.context().close()

  await expect(page.getByTestId('schedule-seats').first()).toContainText('席を確保中', { timeout: 15_000 })
  const mail = await readMail(context, email, 'キャンセル待ちの席が空きました')
  expect(mail.text).toContain(title)
  // On my page, leaving the line asks first when a seat is held: it would go to the next in line at once.
  await gotoReady(page, '/mypage')
  const entry = page.getByTestId('waitlist-entry').filter({ hasText: title })
  await expect(entry).toContainText('席を確保中')
  await entry.getByTestId('waitlist-entry-leave').click()
  const confirm = page.getByTestId('waitlist-leave-confirm')
  await expect(confirm).toContainText('確保している席を手放しますか？')
  await confirm.getByRole('button', { name: '手放さない' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(entry).toContainText('席を確保中')
  await gotoReady(page, `/class_search/detail/${classId}`)
  await (await reservationPanel(page)).getByTestId('reservation-schedule').first().check()
  await page.getByTestId('reserve-button').click()
  await confirmReservation(page)
})
