import { createServer } from 'node:net'
import AxeBuilder from '@axe-core/playwright'
import { type Browser, type BrowserContext, expect, type Page, type TestInfo, test } from '@playwright/test'

export const isPhone = (testInfo: TestInfo) => testInfo.project.name === 'phone'

/**
 * Waits until the client has hydrated (the app-load key is released). Longer than an assertion's 7 s: while the
 * other worker starts three server instances (cluster.spec), a page's scripts were seen to load in 0.7 s and the
 * starved browser to hydrate 7 s later. Speed is measured by the bench and Lighthouse, not here.
 */
export async function gotoReady(page: Page, path: string) {
  const response = await page.goto(path)
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true', { timeout: 15_000 })
  return response
}

/**
 * The class page's reservation panel, scrolled to as a member would before using it: it hydrates, and loads its
 * code and the member's learners, when it comes into view (docs/decisions/0030).
 */
export async function reservationPanel(page: Page) {
  const area = page.getByTestId('reservation-area')
  await area.scrollIntoViewIfNeeded()
  await expect(area).toHaveAttribute('data-hydrated', 'true')
  return area.getByTestId('reservation-panel')
}

/** Console errors and uncaught exceptions from now on (the browser's own line for a 4xx/5xx answer excepted). */
export function watchErrors(page: Page) {
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) errors.push(m.text())
  })
  page.on('pageerror', (e) => errors.push(e.message))
  return errors
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

/**
 * The newest mail to `email` in the demo mailbox (/test/mailbox), waiting for the job runner to send it; returns
 * its subject and plain-text part.
 */
export async function readMail(context: BrowserContext, email: string, subject?: RegExp | string) {
  const page = await context.newPage()
  try {
    const item = page
      .getByTestId('mailbox-item')
      .filter(subject ? { hasText: subject } : {})
      .first()
    await expect(async () => {
      await page.goto(`/test/mailbox?${new URLSearchParams({ to: email })}`)
      await expect(item).toBeVisible({ timeout: 500 })
    }).toPass({ timeout: 10_000 })
    await item.getByRole('link').click()
    const text = (await page.getByTestId('mail-text').textContent()) ?? ''
    return { subject: (await page.getByTestId('mail-subject').textContent()) ?? '', text }
  } finally {
    await page.close()
  }
}

/** The confirmation link of a sign-up, from the mail in the demo mailbox. */
export async function verificationLink(context: BrowserContext, email: string) {
  const mail = await readMail(context, email, 'メールアドレスの確認')
  const url = /https?:\/\/\S+\/idp\/verify-email\?token=[A-Za-z0-9_%-]+/.exec(mail.text)?.[0]
  expect(url, mail.text).toBeTruthy()
  return url!
}

/**
 * Signs up a new account on the embedded provider, confirms its e-mail and registers it as a parent — for tests
 * that change what a member sees (read marks, learner profiles) without touching the shared demo accounts.
 */
export async function registerNewParent(page: Page, context: BrowserContext, nickname = 'みどり') {
  const email = `e2e-${Date.now()}-${Math.floor(Math.random() * 1e6)}@manabi.example`
  await gotoReady(page, '/')
  await page.getByTestId('header-signup').click()
  await page.getByLabel('メールアドレス').fill(email)
  await page.getByLabel('パスワード').fill('manabi-demo-1234')
  await page.getByLabel('ニックネーム').fill(nickname)
  await page.getByRole('button', { name: '登録する' }).click()
  await expect(page.getByRole('heading', { name: '確認メールを送信しました' })).toBeVisible()
  const verifyUrl = await verificationLink(context, email)
  await page.getByRole('link', { name: 'まなびのたねへ進む' }).click()
  const mail = await context.newPage()
  await mail.goto(verifyUrl)
  await mail.close()
  await page.getByTestId('confirm-email-check').click()
  await expect(page).toHaveURL(/\/register\/input$/)
  // The check reloads the page: typing before hydration would be lost when React takes over the inputs.
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
  await page.getByLabel('ニックネーム', { exact: true }).fill(nickname)
  await page.getByLabel('お名前').fill(`森 ${nickname}`)
  await page.getByLabel('ふりがな（カタカナ）').fill('モリ ミドリ')
  await page.getByLabel('職業').selectOption({ index: 1 })
  await page.getByLabel(/に同意します/).check()
  await page.getByRole('button', { name: '登録する' }).click()
  await expect(page).toHaveURL(/\/register\/thanks$/)
  return email
}

/** A datetime-local value (Tokyo time) `days` from now at `hour`:00. */
export function tokyoLocal(days: number, hour: number): string {
  const d = new Date(Date.now() + 9 * 3_600_000 + days * 86_400_000)
  return `${d.toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:00`
}

/**
 * The Tokyo hours of the lessons tests give the demo teacher (けんた先生), one per test (and per project when the
 * test runs on both). A teacher gives one lesson at a time across all their classes (docs/decisions/0056), the seed
 * gives them lessons from 10:00 to 21:00 on many days (app/db/seed/index.ts, `slots`) and a Saturday 10:00 course,
 * and tests run in parallel, on both projects, on the same data: each lesson a test adds starts before 10:00 or at
 * 21:00 or later, at an hour no other test uses within a day of its own (lessons last an hour at most; an hour
 * shared is shared only between days three or more apart).
 */
export const DEMO_TEACHER_HOURS = {
  /** teacher.spec, the class with two schedules: days 3 and 4 (the end filled an hour later, the same day). */
  teacherTwoSchedules: { phone: 21, pc: 22 },
  /** teacher.spec, the device clock days ahead: day 2. */
  teacherClockAhead: 6,
  /** teacher.spec, the lesson that starts while its edit form is open: day 3. */
  teacherStartsWhileEditing: 7,
  /** notifications.spec, the lesson the teacher cancels: day 5. */
  notificationsCancel: { phone: 8, pc: 9 },
  /** payments.spec, the class paid for on a phone: day 3. */
  paymentsOnPhone: 23,
  /** payments.spec, the paid classes of the PC journeys: day 4. */
  paymentsGiveUp: 0,
  paymentsClockFast: 1,
  paymentsCardLimit: 2,
  /** marketplace.spec, the cancelled date (day 4) and the class unpublished while open (day 5). */
  marketplaceCancelled: 3,
  marketplaceUnpublished: 4,
  /** waitlist.spec, the one-seat lesson: day 3. */
  waitlist: 5,
  /** courses.spec, weekly runs of 45-minute lessons: days 5, 12, 19 and days 6, 13, 20. */
  coursesWeekly: 6,
  coursesMadeLater: 7,
  /** teacher.spec, the lesson a second class of the teacher cannot take too: day 6. */
  teacherOverlap: 8,
} as const

/**
 * `days` for a demo-teacher lesson, four weeks later on a retry: the failed attempt's lesson still stands at the first
 * time, and a second one there would be refused (0056). Every first attempt's lesson falls within 20 days, so the
 * retries (the same table, 28 days on) meet none of them nor each other.
 */
export function lessonDays(days: number): number {
  return days + 28 * test.info().retry
}

/** A demo-teacher lesson hour of DEMO_TEACHER_HOURS, the running project's own where it has one per project. */
export function demoTeacherHour(hour: number | { phone: number; pc: number }, testInfo: TestInfo): number {
  return typeof hour === 'number' ? hour : isPhone(testInfo) ? hour.phone : hour.pc
}

/** Fills the class form of /class_management/create with a class of the first category and style. */
export async function fillClassForm(
  teacher: Page,
  c: { title: string; description: string; price: number; capacity: number; minutes?: number },
) {
  const form = teacher.getByTestId('class-form')
  await form.getByLabel('タイトル').fill(c.title)
  await form.getByLabel('説明').fill(c.description)
  await form.getByLabel('カテゴリー').selectOption({ index: 1 })
  await form.getByLabel('クラスの形式').selectOption({ index: 1 })
  await form.getByRole('checkbox').first().check()
  await form.getByLabel('料金（円）').fill(String(c.price))
  await form.getByLabel('定員（人）').fill(String(c.capacity))
  if (c.minutes !== undefined) await form.getByLabel('時間（分）').fill(String(c.minutes))
}

/**
 * As the teacher signed in on `teacher`, publishes a one-lesson class (first category and format, first grade) with
 * its single lesson `days` ahead at `hour` (Tokyo; for the demo teacher, an hour of DEMO_TEACHER_HOURS); its id.
 */
export async function createClassWithLesson(
  teacher: Page,
  c: { title: string; description: string; price: number; capacity: number; days: number; hour: number },
): Promise<number> {
  await gotoReady(teacher, '/class_management/create')
  await fillClassForm(teacher, c)
  await teacher.getByTestId('publish-toggle').check()
  await teacher.getByTestId('save-class').click()
  await expect(teacher).toHaveURL(/\/class_management\/edit\/\d+$/)
  const classId = Number(teacher.url().split('/').pop())
  const scheduleForm = teacher.getByTestId('schedule-form').last()
  await scheduleForm.getByLabel('開始日時').fill(tokyoLocal(c.days, c.hour))
  await scheduleForm.getByTestId('save-schedule').click()
  await expect(teacher.getByTestId('schedule-row')).toHaveCount(1)
  return classId
}

/** A second signed-in person in their own browser context (same device settings as the test's page). */
export async function otherPerson(browser: Browser, page: Page, email: string, path: string) {
  const context = await browser.newContext({
    baseURL: new URL(page.url()).origin,
    viewport: page.viewportSize(),
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
  })
  const other = await context.newPage()
  await login(other, email, path)
  return other
}

/** The embedded test provider's cards (issue 17). */
export const CARDS = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
} as const

/**
 * On the checkout page a paid reservation leads to: pays with a test card and waits for the outcome (the done
 * panel, or the refusal shown on the form).
 */
export async function payOnCheckout(page: Page, number: string = CARDS.success) {
  await expect(page).toHaveURL(/\/checkout\/\d+$/)
  const form = page.getByTestId('card-form')
  await form.getByTestId('card-number').fill(number)
  await form.getByTestId('card-expiry').fill('12/30')
  await form.getByTestId('card-cvc').fill('123')
  await form.getByTestId('pay-button').click()
  if (number === CARDS.success) await expect(page.getByTestId('checkout-done')).toBeVisible()
  else await expect(form.getByTestId('card-error')).toBeVisible()
}

/** A child booked into a class for other grades: the dialog asks to confirm it (issue 19). */
export async function acknowledgeGrade(page: Page) {
  const confirm = page.getByTestId('reservation-confirm')
  if (await confirm.getByTestId('grade-warning').isVisible())
    await confirm.getByTestId('grade-confirm').check()
}

/**
 * Confirms the reservation dialog of a class page: a free class is reserved there (the done panel), a paid one goes
 * to the checkout page and is paid with the test card (issue 17).
 */
export async function confirmReservation(page: Page) {
  const confirm = page.getByTestId('reservation-confirm')
  const button = confirm.getByRole('button', { name: /^(予約を確定する|お支払いへ進む)$/ })
  const paid = (await button.textContent())?.includes('お支払い') ?? false
  await acknowledgeGrade(page)
  await button.click()
  if (paid) await payOnCheckout(page)
  else await expect(page.getByTestId('reservation-done')).toBeVisible()
  return paid ? ('paid' as const) : ('free' as const)
}

/**
 * A TCP port the OS has just handed out, to start a server on at once. Spec files that start their own servers run
 * side by side, and ports drawn at random from overlapping ranges could collide (one file's readiness poll answered
 * by another file's server). The OS hands ephemeral ports out in turn, so another process getting this one before
 * the server binds it is unlikely, not impossible: the server then fails to start, and the test with it.
 */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (!address || typeof address === 'string') throw new Error('no port was handed out')
  return address.port
}
