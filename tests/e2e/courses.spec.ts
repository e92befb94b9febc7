import { expect, test } from '@playwright/test'
import {
  DEMO_TEACHER_HOURS,
  expectAccessible,
  fillClassForm,
  gotoReady,
  lessonDays,
  login,
  payOnCheckout,
  registerNewParent,
  reservationPanel,
  tokyoLocal,
} from './helpers'

const TEACHER = 'teacher@manabi.example'

/** 全N回 (issue 16): a teacher offers a 3-lesson course; a parent finds it and books the whole run at once. */
test('a teacher creates a 全3回 course with weekly lessons; a parent books all three at once @pc-only', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  const title = `E2E 3回でまなぶ俳句 ${Date.now().toString(36)}`

  await login(page, TEACHER, '/class_management/create')
  await fillClassForm(page, {
    title,
    description: '3週で季語、五七五、句会まで。',
    price: 4500,
    capacity: 4,
    minutes: 45,
  })
  const form = page.getByTestId('class-form')
  await form.getByTestId('lesson-count-input').fill('3')
  await expect(form.getByText('0円で無料。コース全体の料金')).toBeVisible()
  await page.getByTestId('publish-toggle').check()
  await page.getByTestId('save-class').click()
  await expect(page).toHaveURL(/\/class_management\/edit\/\d+$/)
  const classId = Number(page.url().split('/').pop())

  // A run: the first lesson typed, the rest filled weekly; each lesson lasts the class's 45 minutes.
  const scheduleForm = page.getByTestId('schedule-form').last()
  await expect(scheduleForm.getByTestId('lesson-start')).toHaveCount(3)
  await scheduleForm.getByTestId('save-schedule').click()
  await expect(scheduleForm.getByText('第1回の開始日時を入力してください')).toBeVisible()
  const hour = DEMO_TEACHER_HOURS.coursesWeekly
  const first = lessonDays(5)
  await scheduleForm.getByLabel('第1回').fill(tokyoLocal(first, hour))
  await scheduleForm.getByRole('button', { name: '第2回以降を毎週同じ時間で入力' }).click()
  await expect(scheduleForm.getByLabel('第2回')).toHaveValue(tokyoLocal(first + 7, hour))
  await expect(scheduleForm.getByLabel('第3回')).toHaveValue(tokyoLocal(first + 14, hour))
  await scheduleForm.getByTestId('save-schedule').click()
  await expect(page.getByTestId('snackbar')).toContainText('スケジュールを追加しました')
  const row = page.getByTestId('schedule-row')
  await expect(row).toHaveCount(1)
  await expect(row.getByTestId('course-run')).toContainText('全3回')
  // The number of lessons is now fixed.
  await expect(page.getByTestId('lesson-count-input')).toBeDisabled()
  await expectAccessible(page)

  // Search: the card says 全3回 and the course price.
  await gotoReady(page, `/class_search?q=${encodeURIComponent(title)}`)
  const card = page.getByTestId('class-card').filter({ hasText: title })
  await expect(card.getByTestId('class-card-course')).toHaveText('全3回')
  await expect(card.getByTestId('class-card-price')).toContainText('¥4,500（全3回分）')

  // A parent books the run: the page lists the three lessons, the confirmation too, one reservation results.
  const context = await browser.newContext({
    baseURL: new URL(page.url()).origin,
    viewport: page.viewportSize(),
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
  })
  const parent = await context.newPage()
  await registerNewParent(parent, context, 'コース保護者')
  await gotoReady(parent, `/class_search/detail/${classId}`)
  await expect(parent.getByTestId('lesson-count')).toContainText('全3回のコース')
  await expect(parent.getByTestId('class-price')).toContainText('／全3回（税込）')
  const chosen = parent.getByTestId('chosen-course')
  await expect(chosen.getByTestId('course-lessons').locator('li')).toHaveCount(3)
  await expectAccessible(parent)
  // The panel hydrates when the member scrolls to it (0030); until then its 予約する waits for their options.
  await (await reservationPanel(parent)).getByTestId('reserve-button').click()
  const confirm = parent.getByTestId('reservation-confirm')
  await expect(confirm).toContainText('日時：全3回')
  await expect(confirm).toContainText('第1回の授業開始の24時間前まで、コース全体でできます')
  // A paid course: the checkout lists the three lessons and charges once.
  await confirm.getByRole('button', { name: 'お支払いへ進む' }).click()
  await expect(
    parent.getByTestId('checkout-summary').getByTestId('course-lessons').locator('li'),
  ).toHaveCount(3)
  await expect(parent.getByTestId('cancel-policy')).toContainText('全3回まとめて')
  await payOnCheckout(parent)

  // 受講クラス: one reservation with its three lessons; the .ics has three events.
  await gotoReady(parent, '/class_attendance')
  const item = parent.getByTestId('attendance-item').filter({ hasText: title })
  await expect(item).toHaveCount(1)
  await item.getByTestId('course-run').locator('summary').click()
  await expect(item.getByTestId('course-lessons').locator('li')).toHaveCount(3)
  await item.getByTestId('add-to-calendar').locator('summary').click()
  await expect(item.getByTestId('google-calendar-link')).toHaveCount(3)
  const icsHref = (await item.getByTestId('ics-link').getAttribute('href'))!
  const text = await (await parent.request.get(icsHref)).text()
  expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(3)
  expect(text).toContain('（第3回／全3回）')
  // Each lesson ends 45 minutes after the hour it starts at.
  const lessonEnd = new RegExp(`DTEND;TZID=Asia/Tokyo:\\d{8}T${String(hour).padStart(2, '0')}4500`, 'g')
  expect(text.match(lessonEnd)).toHaveLength(3)
  await expectAccessible(parent)

  // The teacher lengthens the class, then edits only the run's capacity: the booked lessons keep their times
  // (not a move: no 48-hour rule, no mail to the family).
  await gotoReady(page, `/class_management/edit/${classId}`)
  await page.getByTestId('class-form').getByLabel('時間（分）').fill('90')
  await page.getByTestId('save-class').click()
  await expect(page.getByTestId('snackbar')).toContainText('クラスを保存しました')
  const runRow = page.getByTestId('schedule-row')
  await runRow.getByRole('button', { name: '編集' }).click()
  await runRow.getByTestId('schedule-form').getByLabel('定員（人）').fill('5')
  await runRow.getByTestId('save-schedule').click()
  await expect(page.getByTestId('snackbar')).toContainText('スケジュールを変更しました')
  await expect(runRow).toContainText('予約 1/5席')
  const after = await (await parent.request.get(icsHref)).text()
  expect(after.match(lessonEnd)).toHaveLength(3)
  await context.close()
})

test('a class made a course on its edit page: the add form asks for each lesson and the new seats; the list says 全N回 @pc-only', async ({
  page,
}) => {
  const title = `E2E あとからコース ${Date.now().toString(36)}`
  await login(page, TEACHER, '/class_management/create')
  await fillClassForm(page, {
    title,
    description: '1回のつもりが3回に。',
    price: 0,
    capacity: 4,
    minutes: 45,
  })
  const form = page.getByTestId('class-form')
  await page.getByTestId('save-class').click()
  await expect(page).toHaveURL(/\/class_management\/edit\/\d+$/)
  // The edit page as loaded (right after the create, the class form can still be filled anew from its data).
  await gotoReady(page, page.url())
  const scheduleForm = page.getByTestId('schedule-form').last()
  await expect(scheduleForm.getByTestId('lesson-start')).toHaveCount(0)

  // Still without dates, it becomes a 全3回 course with 8 seats.
  await form.getByTestId('lesson-count-input').fill('3')
  await form.getByLabel('定員（人）').fill('8')
  await page.getByTestId('save-class').click()
  await expect(page.getByTestId('snackbar')).toContainText('クラスを保存しました')
  await expect(scheduleForm.getByTestId('lesson-start')).toHaveCount(3)
  await expect(scheduleForm.getByLabel('定員（人）')).toHaveValue('8')
  await scheduleForm.getByLabel('第1回').fill(tokyoLocal(lessonDays(6), DEMO_TEACHER_HOURS.coursesMadeLater))
  await scheduleForm.getByRole('button', { name: '第2回以降を毎週同じ時間で入力' }).click()
  await scheduleForm.getByTestId('save-schedule').click()
  await expect(page.getByTestId('snackbar')).toContainText('スケジュールを追加しました')
  await expect(page.getByTestId('schedule-row')).toContainText('予約 0/8席')

  await gotoReady(page, '/class_management?tab=unpublished')
  const item = page.getByTestId('class-row').filter({ hasText: title })
  await expect(item.getByTestId('next-schedule')).toContainText('全3回')
})
