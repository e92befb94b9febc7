import { type Browser, expect, type Page, test } from '@playwright/test'
import {
  acknowledgeGrade,
  CARDS,
  createClassWithLesson,
  DEMO_TEACHER_HOURS,
  expectAccessible,
  gotoReady,
  lessonDays,
  login,
  payOnCheckout,
  readMail,
  registerNewParent,
  reservationPanel,
} from './helpers'

const TEACHER = 'teacher@manabi.example'

/** The demo teacher, in a browser of their own, publishes a paid class with one lesson 4 days ahead; its id. */
async function paidClass(
  browser: Browser,
  baseURL: string | undefined,
  c: { title: string; description: string; price: number; capacity: number; hour: number },
) {
  const teacherContext = await browser.newContext({ baseURL, locale: 'ja-JP', timezoneId: 'Asia/Tokyo' })
  const teacher = await teacherContext.newPage()
  await login(teacher, TEACHER, '/class_management')
  const classId = await createClassWithLesson(teacher, {
    ...c,
    title: `${c.title} ${Date.now().toString(36)}`,
    days: lessonDays(4),
  })
  await teacherContext.close()
  return classId
}

/** A new parent holds a seat of the class's first date and lands on its checkout page. */
async function holdSeat(page: Page, classId: number, nickname: string) {
  await registerNewParent(page, page.context(), nickname)
  await gotoReady(page, `/class_search/detail/${classId}`)
  await (await reservationPanel(page)).getByTestId('reservation-schedule').first().check()
  await page.getByTestId('reserve-button').click()
  await expect(page.getByTestId('reservation-confirm')).toBeVisible()
  await acknowledgeGrade(page)
  await page.getByTestId('reservation-confirm').getByRole('button', { name: 'お支払いへ進む' }).click()
  await expect(page).toHaveURL(/\/checkout\/\d+$/)
}

/**
 * Checkout on a phone (issue 17): a parent books a paid class, a refused card keeps the seat for another try, the
 * test card pays, the receipt and its mail follow; the teacher cancels and the parent sees the refund.
 */
test('a parent pays for a class on a phone, gets the receipt, and sees the refund when the teacher cancels @phone-only', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000)
  const title = `E2E 決済のクラス ${Date.now().toString(36)}`

  // The teacher (on a PC) offers a paid class with one lesson.
  const teacherContext = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
  })
  const teacher = await teacherContext.newPage()
  await login(teacher, TEACHER, '/class_management')
  const classId = await createClassWithLesson(teacher, {
    title,
    description: 'お支払いの流れを確かめるクラスです。',
    price: 3300,
    capacity: 2,
    days: 3,
    hour: DEMO_TEACHER_HOURS.paymentsOnPhone,
  })

  // A new parent on the phone: the confirmation shows the tax, then the checkout page.
  const email = await registerNewParent(page, page.context(), 'けっさい')
  await gotoReady(page, `/class_search/detail/${classId}`)
  await (await reservationPanel(page)).getByTestId('reservation-schedule').first().check()
  await page.getByTestId('reserve-button').click()
  const confirm = page.getByTestId('reservation-confirm')
  await expect(confirm).toContainText('¥3,300（税込、うち消費税 ¥300）')
  await confirm.getByRole('button', { name: 'お支払いへ進む' }).click()
  await expect(page).toHaveURL(/\/checkout\/\d+$/)
  await expect(page.getByRole('heading', { level: 1, name: 'お支払い' })).toBeVisible()
  await expect(page.getByTestId('checkout-price')).toContainText('¥3,300（税込）')
  await expect(page.getByTestId('checkout-price')).toContainText('うち消費税（10%） ¥300')
  await expect(page.getByTestId('cancel-policy')).toContainText('24時間前まで')
  await expect(page.getByTestId('hold-notice')).toContainText('まで確保しています')
  await expectAccessible(page)
  const checkoutUrl = page.url()

  // A refused card: a clear Japanese error, and the seat stays held for another try.
  await payOnCheckout(page, CARDS.declined)
  await expect(page.getByTestId('card-error')).toHaveText(
    'カードが承認されませんでした。別のカードをお試しください',
  )
  await gotoReady(page, checkoutUrl)
  await expect(page.getByTestId('payment-failure')).toContainText('カードが承認されませんでした')
  await expect(page.getByTestId('card-form')).toBeVisible()
  // Nobody else can take the held seat meanwhile: the class page says 1 left of 2 for anyone.
  await gotoReady(teacher, `/class_search/detail/${classId}`)
  await expect(teacher.getByTestId('schedule-status').first()).toHaveText('残り1席')

  // The test card pays: done, with the receipt. While the card is being charged the seat cannot be given up (the
  // parent would be told it was let go, then be charged and booked).
  await gotoReady(page, checkoutUrl)
  let release = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route('**/_serverFn/**', async (route) => {
    if (route.request().method() === 'POST') await held
    await route.continue()
  })
  const cardForm = page.getByTestId('card-form')
  await cardForm.getByTestId('card-number').fill(CARDS.success)
  await cardForm.getByTestId('card-expiry').fill('12/30')
  await cardForm.getByTestId('card-cvc').fill('123')
  await cardForm.getByTestId('pay-button').click()
  await expect(cardForm.getByTestId('pay-button')).toBeDisabled()
  await expect(page.getByTestId('give-up')).toBeDisabled()
  release()
  await page.unrouteAll({ behavior: 'wait' })
  await expect(page.getByTestId('checkout-done')).toBeVisible()
  await expect(page.getByRole('heading', { level: 1, name: 'お支払いが完了しました' })).toBeVisible()
  await page.getByTestId('to-receipt').click()
  await expect(page).toHaveURL(/\/purchase_history\/receipt\/\d+$/)
  const receipt = page.getByTestId('payment-receipt')
  await expect(receipt).toContainText('領収書')
  await expect(page.getByTestId('receipt-amount')).toContainText('¥3,300（税込）')
  await expect(receipt).toContainText('うち消費税 ¥300')
  await expect(receipt).toContainText(title)
  await expect(page.getByTestId('receipt-issuer')).toContainText('まなびのたね')
  await expect(page.getByTestId('receipt-issuer')).toContainText('登録番号')
  await expectAccessible(page)
  // 宛名, once.
  await page.getByTestId('receipt-name-form').getByLabel('宛名（一度だけ設定できます）').fill('けっさい 花子')
  await page.getByTestId('receipt-name-form').getByRole('button', { name: '宛名を設定' }).click()
  await page.getByTestId('receipt-name-confirm').getByRole('button', { name: '設定する' }).click()
  await expect(page.getByTestId('receipt-name')).toHaveText('けっさい 花子 様')
  await expect(page.getByTestId('receipt-name-form')).toHaveCount(0)
  // The receipt mail.
  const mail = await readMail(page.context(), email, 'お支払いが完了しました（領収書）')
  expect(mail.text).toContain('お支払い金額：¥3,300（税込）')
  expect(mail.text).toContain('/purchase_history/receipt/')

  // The teacher cancels the lesson; the parent sees it cancelled and refunded.
  await gotoReady(teacher, `/class_management/edit/${classId}`)
  await teacher.getByTestId('cancel-schedule').click()
  await teacher.getByTestId('cancel-schedule-dialog').getByRole('button', { name: '休講にする' }).click()
  await expect(teacher.getByTestId('schedule-status').filter({ hasText: '休講' })).toHaveCount(1)
  await teacherContext.close()

  await gotoReady(page, '/class_attendance')
  const item = page.getByTestId('attendance-item').filter({ hasText: title })
  await expect(item.getByTestId('attendance-status')).toHaveText('開催中止')
  await expect(async () => {
    await gotoReady(page, '/purchase_history')
    await expect(page.getByTestId('history-item').filter({ hasText: '返金済み' })).toContainText(title)
  }).toPass({ timeout: 15_000 })
  await expect(page.getByTestId('history-totals')).toContainText('¥3,300')
  await expectAccessible(page)
  const refundMail = await readMail(page.context(), email, '返金が完了しました')
  expect(refundMail.text).toContain('返金額：¥3,300')
})

test('a parent who gives up paying can book the date again at once (no 「お支払い待ち」 left on the class page) @pc-only', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const classId = await paidClass(browser, baseURL, {
    title: 'E2E 支払いをやめる',
    description: '支払いをやめて、もう一度予約します。',
    price: 1100,
    capacity: 3,
    hour: DEMO_TEACHER_HOURS.paymentsGiveUp,
  })
  await holdSeat(page, classId, 'やめる')
  await page.getByTestId('give-up').click()
  await expect(page.getByTestId('snackbar')).toContainText('予約をとりやめました')
  await expect(page).toHaveURL(new RegExp(`/class_search/detail/${classId}$`))
  const panel = await reservationPanel(page)
  await expect(panel.getByTestId('schedule-seats')).toHaveText('残り3席')
  await expect(panel.getByTestId('continue-payment')).toHaveCount(0)
  await expect(panel.getByTestId('reservation-schedule')).toBeEnabled()
  await expect(panel.getByTestId('reserve-button')).toHaveText('予約する')
})

test('a device whose clock is 20 minutes fast still counts the hold down from the server, and can pay @pc-only', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const classId = await paidClass(browser, baseURL, {
    title: 'E2E 時計のずれ',
    description: '端末の時計がずれていても支払えます。',
    price: 1200,
    capacity: 3,
    hour: DEMO_TEACHER_HOURS.paymentsClockFast,
  })
  await holdSeat(page, classId, 'とけい')
  // The page's clock runs 20 minutes ahead of the server's: the hold (10 minutes) would be over by it.
  await page.clock.install({ time: Date.now() + 20 * 60_000 })
  await gotoReady(page, page.url())
  await expect(page.getByTestId('hold-notice')).toContainText(/あと(9|10)分\d\d秒/)
  await expect(page.getByTestId('give-up')).toBeVisible()
  await payOnCheckout(page)
})

test('after five refused cards the checkout pauses card payments, saying so, until the limit passes @pc-only', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const classId = await paidClass(browser, baseURL, {
    title: 'E2E カード試行のクラス',
    description: 'カードの試行回数の上限を確かめるクラスです。',
    price: 2200,
    capacity: 2,
    hour: DEMO_TEACHER_HOURS.paymentsCardLimit,
  })
  await holdSeat(page, classId, 'しこう')
  const checkoutUrl = page.url()
  for (let i = 0; i < 5; i++) await payOnCheckout(page, CARDS.declined)
  await gotoReady(page, checkoutUrl)
  await expect(page.getByTestId('cards-paused')).toContainText('10分ほどおいてから')
  await expect(page.getByTestId('card-form')).toHaveCount(0)
  await expectAccessible(page)
})
