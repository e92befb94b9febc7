import { readFileSync } from 'node:fs'
import { expect, type Page, test } from '@playwright/test'
import sharp from 'sharp'
import {
  confirmReservation,
  createClassWithLesson,
  DEMO_TEACHER_HOURS,
  demoTeacherHour,
  expectAccessible,
  fillClassForm,
  gotoReady,
  lessonDays,
  login,
  otherPerson,
  reservationPanel,
  tokyoLocal,
} from './helpers'

const TEACHER = 'teacher@manabi.example'
const PARENT = 'parent@manabi.example'
const OWNER = 'owner@manabi.example'
const TEACHER_NICKNAME = 'けんた先生'
const OWNER_NICKNAME = 'みさき先生'
test('a teacher creates and publishes a class with two schedules, then cancels a reserved one', async ({
  page,
  browser,
}, testInfo) => {
  // Two people, an image, a payment and a refund: 1.1–1.6 min under a full run's load, past 2 min once in CI.
  test.setTimeout(180_000)
  const title = `E2E陶芸教室 ${testInfo.project.name} ${Date.now().toString(36)}`

  await login(page, TEACHER, '/class_management')
  await expect(page.getByRole('heading', { level: 1, name: 'クラス管理' })).toBeVisible()
  await expectAccessible(page)

  // Create: an empty save keeps the page and shows Japanese field errors.
  await page.getByTestId('create-class').click()
  await expect(page.getByRole('heading', { level: 1, name: 'クラスを作成' })).toBeVisible()
  const form = page.getByTestId('class-form')
  await form.getByLabel('タイトル').fill(title)
  await form.getByLabel('カテゴリー').selectOption({ index: 1 })
  await page.getByTestId('save-class').click()
  await expect(form.getByText('対象学年を1つ以上選択してください')).toBeVisible()
  await expect(page).toHaveURL(/\/class_management\/create$/)
  await expect(form.getByLabel('タイトル')).toHaveValue(title)
  await expectAccessible(page)

  // Contact details in the description are refused by the server, shown by the field, and nothing is created.
  await form.getByLabel('説明').fill('質問は 090-1234-5678 までどうぞ。')
  await form.getByLabel('クラスの形式').selectOption({ index: 1 })
  await form.getByRole('checkbox').first().check()
  await form.getByLabel('料金（円）').fill('1200')
  await form.getByLabel('定員（人）').fill('3')
  await form.getByLabel('時間（分）').fill('60')
  await page.getByTestId('publish-toggle').check()
  await page.getByTestId('save-class').click()
  await expect(form.getByText('説明に連絡先やSNSのIDは書けません（電話番号）')).toBeVisible()
  await expect(page).toHaveURL(/\/class_management\/create$/)
  await form.getByLabel('説明').fill('粘土で小さなお皿を作ります。\n道具は家にあるもので大丈夫です。')
  await page.getByTestId('save-class').click()
  await expect(page).toHaveURL(/\/class_management\/edit\/\d+$/)
  const classId = Number(page.url().split('/').pop())
  await expect(page.getByRole('heading', { level: 1, name: 'クラスを編集' })).toBeVisible()

  // An image: a wrong type is refused at once; the server checks the content (a GIF named .png is refused).
  const image = page.getByLabel('画像', { exact: true })
  await image.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') })
  await expect(page.getByText('画像は PNG・JPEG・WebP のいずれかにしてください')).toBeVisible()
  await expect(page.getByTestId('image-crop-step')).toHaveCount(0)
  await image.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('GIF89a fake') })
  await page.getByTestId('image-crop-confirm').click()
  await expect(page.getByText('画像は PNG・JPEG・WebP のいずれかにしてください')).toBeVisible()
  // A 2:1 picture dropped on the field is cropped to the card's 8:5, stored as WebP and served cached.
  const wide = await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#4ec2f0' } })
    .png()
    .toBuffer()
  const dropped = await page.evaluateHandle((base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
    const transfer = new DataTransfer()
    transfer.items.add(new File([bytes], 'wide.png', { type: 'image/png' }))
    return transfer
  }, wide.toString('base64'))
  await page.getByTestId('image-drop').dispatchEvent('drop', { dataTransfer: dropped })
  await expect(page.getByTestId('image-cropper').locator('img')).toBeVisible()
  await page.getByTestId('image-crop-confirm').click()
  const preview = page.getByTestId('image-preview')
  await expect(preview).toHaveAttribute('src', /^\/uploads\/classes\/[a-f0-9]{32}\.webp$/)
  await expect(page.getByText('画像は PNG・JPEG・WebP のいずれかにしてください')).toHaveCount(0)
  const served = await page.request.get((await preview.getAttribute('src'))!)
  expect(served.headers()['content-type']).toBe('image/webp')
  expect(served.headers()['cache-control']).toContain('immutable')
  const stored = await sharp(await served.body()).metadata()
  expect(Math.abs(stored.width! / stored.height! - 8 / 5)).toBeLessThan(0.02)
  expect(stored.height).toBeGreaterThanOrEqual(495)
  await page.getByTestId('save-class').click()
  await expect(page.getByTestId('snackbar')).toContainText('クラスを保存しました')

  // Two schedules (the end follows the start + duration), at an hour the demo teacher has free on this project.
  const hour = demoTeacherHour(DEMO_TEACHER_HOURS.teacherTwoSchedules, testInfo)
  for (const [i, days] of [lessonDays(3), lessonDays(4)].entries()) {
    const scheduleForm = page.getByTestId('schedule-form').last()
    await scheduleForm.getByLabel('開始日時').fill(tokyoLocal(days, hour))
    await expect(scheduleForm.getByLabel('終了日時')).toHaveValue(tokyoLocal(days, hour + 1))
    // A start changed afterwards takes the end along (never a lesson left ending the next day). Not saved.
    await scheduleForm.getByLabel('開始日時').fill(tokyoLocal(days - 1, 13))
    await expect(scheduleForm.getByLabel('終了日時')).toHaveValue(tokyoLocal(days - 1, 14))
    await scheduleForm.getByLabel('開始日時').fill(tokyoLocal(days, hour))
    await expect(scheduleForm.getByLabel('終了日時')).toHaveValue(tokyoLocal(days, hour + 1))
    await scheduleForm.getByLabel('ミーティングURL（任意）').fill('https://meet.example.com/e2e')
    await scheduleForm.getByTestId('save-schedule').click()
    await expect(page.getByTestId('schedule-row')).toHaveCount(i + 1)
    // The fields are disabled while the save is pending and empty once usable again (read once, not waited
    // for): a next schedule typed as soon as the row shows is not wiped by the reset.
    await expect(scheduleForm.getByLabel('開始日時')).toBeEnabled()
    expect(await scheduleForm.getByLabel('開始日時').inputValue()).toBe('')
    expect(await scheduleForm.getByLabel('終了日時').inputValue()).toBe('')
  }

  // Published: found by the class search.
  await gotoReady(page, `/class_search?q=${encodeURIComponent(title)}`)
  await expect(page.getByRole('link', { name: title }).first()).toBeVisible()

  // The demo parent reserves the first schedule through the class page.
  const parent = await otherPerson(browser, page, PARENT, `/class_search/detail/${classId}`)
  // Its picture comes at the width the screen needs (smaller WebP made on first request), preloaded at that width.
  const picture = parent.locator('article img').first()
  await expect(picture).toHaveAttribute(
    'srcset',
    /-w320\.webp 320w, \S+-w640\.webp 640w, \S+-w960\.webp 960w, \S+\.webp 1600w$/,
  )
  const preload = parent.locator('link[rel=preload][as=image][fetchpriority=high]')
  await expect(preload).toHaveCount(1)
  await expect(preload).toHaveAttribute('imagesrcset', (await picture.getAttribute('srcset'))!)
  const w640 = (await picture.getAttribute('srcset'))!.split(', ')[1]!.split(' ')[0]!
  const variant = await parent.request.get(w640)
  expect(variant.headers()['content-type']).toBe('image/webp')
  expect((await sharp(await variant.body()).metadata()).width).toBe(640)
  await (await reservationPanel(parent)).getByTestId('reservation-schedule').first().check()
  await parent.getByTestId('reserve-button').click()
  await confirmReservation(parent)

  // The teacher sees the student, writes to the class's members, then cancels that schedule.
  await gotoReady(page, `/class_management/edit/${classId}`)
  await expectAccessible(page)
  await page.getByLabel('件名').fill('持ち物のお知らせ')
  await page.getByLabel('本文').fill('粘土板を用意してください。')
  await page.getByRole('button', { name: 'お知らせを送る' }).click()
  await expect(page.getByTestId('snackbar')).toContainText('お知らせを送りました（1人）')
  const booked = page.getByTestId('schedule-row').filter({ hasText: '予約 1/3席' })
  await expect(booked).toHaveCount(1)
  await booked.getByTestId('toggle-students').click()
  await expect(booked.getByTestId('student-row')).toHaveCount(1)
  await expect(booked.getByTestId('student-row')).toContainText('予約中')
  const messageHref = await booked
    .getByTestId('student-row')
    .getByRole('link', { name: /メッセージ/ })
    .getAttribute('href')
  expect(messageHref).toMatch(/^\/message\?to=\d+$/)
  await booked.getByTestId('cancel-schedule').click()
  await page.getByTestId('cancel-schedule-dialog').getByRole('button', { name: '休講にする' }).click()
  await expect(page.getByTestId('schedule-status').filter({ hasText: '休講' })).toHaveCount(1)

  // The parent sees the reservation canceled by the teacher.
  await gotoReady(parent, '/class_attendance')
  const item = parent.getByTestId('attendance-item').filter({ hasText: title })
  await expect(item.getByTestId('attendance-status')).toHaveText('開催中止')
  await parent.context().close()

  // The student's message link opens the room with them (or preselects them to start one).
  await gotoReady(page, messageHref!)
  const partnerId = messageHref!.split('=')[1]!
  const room = page.getByTestId('room-view')
  // Phones show either the room or the list, PCs both: wait for whichever this page opened.
  await expect(
    page.locator('[data-testid="room-view"]:visible, [data-testid="new-room-partner"]:visible').first(),
  ).toBeVisible()
  if (await room.isVisible()) await expect(room.getByRole('heading', { level: 2 })).toContainText('はなこ')
  else await expect(page.getByTestId('new-room-partner')).toHaveValue(partnerId)

  // Sales: the CSV download has the BOM and the header row; the refund is listed.
  await gotoReady(page, '/sales_management')
  await expect(page.getByRole('heading', { level: 1, name: '売上管理' })).toBeVisible()
  const text = await salesCsv(page)
  expect(text.split('\r\n')[0]).toBe(
    '購入ID,予約日時,クラスID,クラス,開催日時,購入者,受講者,金額,手数料,売上（手数料差引後）,状態,キャンセル日時',
  )
  expect(text).toContain(`${title},`)
  // The job runner makes the refund just after the cancellation: 返金手続き中 until the provider paid it back.
  const ownLine = async () => (await salesCsv(page)).split('\r\n').find((row) => row.includes(`${title},`))
  await expect.poll(ownLine, { timeout: 15_000 }).toContain('休講（返金済み）')
})

/** The month's sales CSV as downloaded from /sales_management (the BOM checked and removed). */
async function salesCsv(page: Page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('sales-csv').click()])
  expect(download.suggestedFilename()).toMatch(/^sales-\d{4}-\d{2}\.csv$|^売上_\d{4}-\d{2}\.csv$/)
  const bytes = readFileSync((await download.path())!)
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  return bytes.subarray(3).toString('utf8')
}

// The sales pages read the demo teacher's own sales, so this journey does not wait for the one above: together
// they ran past two minutes under CI's load.
test('a teacher reads the month on /sales_management: a receipt, the customers, and the payout with its CSV', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await login(page, TEACHER, '/sales_management')
  await expect(page.getByRole('heading', { level: 1, name: '売上管理' })).toBeVisible()
  await expectAccessible(page)
  // The demo's reservations were made in the 48 hours before it was seeded: on a month's first day they may all
  // lie in the month before.
  await expect(page.getByTestId('sales-lines').or(page.getByText('この月の予約はありません。'))).toBeVisible()
  if ((await page.getByTestId('sales-lines').count()) === 0) {
    await page.getByRole('link', { name: /^前の月/ }).click()
    await expect(page).toHaveURL(/month=/)
  }
  // A receipt of one of the month's purchases, and the customers tab.
  const line = page
    .getByTestId('sales-lines')
    .locator('li')
    .filter({ has: page.getByRole('link', { name: '領収書' }) })
    .first()
  const classTitle = (await line.locator('p').first().textContent())!
  const price = (await line.getByText(/^¥[\d,]+$/).textContent())!
  await line.getByRole('link', { name: '領収書' }).click()
  await expect(page.getByTestId('receipt')).toContainText(classTitle)
  await expect(page.getByTestId('receipt')).toContainText(price)
  await expectAccessible(page)
  await gotoReady(page, '/sales_management?tab=customers')
  await expect(page.getByTestId('customers')).toBeVisible()
  await expectAccessible(page)

  // 振込明細: what is transferred is the month's result less what earlier months still owe, never below zero;
  // the CSV ends with the same figures.
  const figures = page.getByTestId('payout-figures')
  const figure = async (label: string) => {
    const cell = figures
      .locator('div')
      .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    if ((await cell.count()) === 0) return 0
    const text = (await cell.locator('dd').textContent()) ?? ''
    return (text.startsWith('−') ? -1 : 1) * Number(text.replace(/[^\d]/g, ''))
  }
  // The journey above books and refunds for this teacher at the same time on the other device, so the page and
  // the CSV are compared as read together: a write between the two reads gets the pair read again.
  await expect(async () => {
    await gotoReady(page, '/sales_management?tab=payouts')
    await expect(figures.locator('dt', { hasText: '振込額' })).toBeVisible()
    const [net, carried, transfer] = [
      await figure('差引'),
      await figure('前月までの繰越'),
      await figure('振込額'),
    ]
    expect(transfer).toBe(Math.max(0, net + carried))
    await expect(page.getByTestId('payout-carry')).toHaveCount(net + carried < 0 ? 1 : 0)
    const [payoutCsv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('payout-csv').click(),
    ])
    const rows = readFileSync((await payoutCsv.path())!)
      .subarray(3)
      .toString('utf8')
      .split('\r\n')
    expect(rows).toContain(`振込額,,,,,,${transfer}`)
  }).toPass({ timeout: 45_000 })
  await expectAccessible(page)
})

test('a non-teacher sees how to become a teacher instead of class management', async ({ page }) => {
  await login(page, PARENT, '/class_management')
  await expect(page.getByTestId('become-teacher')).toBeVisible()
  await expect(page.getByRole('link', { name: '先生として活動する' })).toBeVisible()
  await expectAccessible(page)
})

test('a teacher finds a student by nickname on /message and opens the conversation with them', async ({
  page,
}) => {
  await login(page, TEACHER, '/message')
  const search = page.getByRole('search', { name: '受講者を探す' })
  await search.getByLabel('受講者をニックネームで探す').fill('いないひとの名前')
  await search.getByRole('button', { name: '探す' }).click()
  await expect(page.getByTestId('student-search-empty')).toContainText('見つかりませんでした')
  await expectAccessible(page)
  // The demo parent reserved this teacher's Scratch class.
  await search.getByLabel('受講者をニックネームで探す').fill('はなこ')
  await search.getByRole('button', { name: '探す' }).click()
  const found = page.getByTestId('student-search-results').getByRole('link', { name: 'はなこ' })
  await expect(found).toBeVisible()
  await found.click()
  await expect(page).toHaveURL(/\/message\?to=\d+$/)
  await expect(page.getByTestId('room-view').getByRole('heading', { level: 2 })).toContainText('はなこ')
})

// Demo data is shared: the demo teacher's membership runs once, in the pc project (playwright.config.ts leaves
// `@pc-only` tests out of the phone project), and the create form (the approved demo teacher outside any
// organisation) runs in order with the journey that has them join and leave, never while they are a member.
test.describe('the approved teacher and organisations', { tag: '@pc-only' }, () => {
  test.describe.configure({ mode: 'default' })

  test('the owner regenerates the invitation code; a teacher joins with it, leaves, is handed the organisation and hands it back, and is removed', async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000)
    await login(page, OWNER, '/organization_management')
    await expect(page.getByTestId('org-name')).toBeVisible()
    await expect(page.getByTestId('leave-organization')).toHaveCount(0)
    await expectAccessible(page)

    const removeTeacher = async () => {
      const row = page.getByTestId('org-member').filter({ hasText: TEACHER_NICKNAME })
      if ((await row.count()) === 0) return
      await row.getByRole('button', { name: /外す/ }).click()
      await page.getByTestId('remove-member-dialog').getByRole('button', { name: '外す' }).click()
      await expect(row).toHaveCount(0)
    }
    // A run that stopped half-way may have left the demo teacher in the organisation.
    await removeTeacher()

    const oldCode = (await page.getByTestId('invitation-code').textContent())!.trim()
    await page.getByTestId('regenerate-code').click()
    await page.getByTestId('regenerate-dialog').getByRole('button', { name: '作り直す' }).click()
    await expect(page.getByTestId('invitation-code')).not.toHaveText(oldCode)
    const newCode = (await page.getByTestId('invitation-code').textContent())!.trim()

    const teacher = await otherPerson(browser, page, TEACHER, '/organization_management')
    const join = teacher.getByTestId('join-form')
    await expectAccessible(teacher)
    await join.getByLabel('招待コード').fill(oldCode)
    await join.getByRole('button', { name: '参加する' }).click()
    await expect(teacher.getByText('招待コードが正しくありません')).toBeVisible()
    await join.getByLabel('招待コード').fill(newCode)
    await join.getByRole('button', { name: '参加する' }).click()
    await expect(teacher.getByTestId('org-name')).toBeVisible()
    await expect(teacher.getByTestId('org-members')).toContainText(TEACHER_NICKNAME)

    // A member may leave of their own accord (the owner has no such button), and come back with the same code.
    const orgName = (await teacher.getByTestId('org-name').textContent())!.trim()
    await teacher.getByTestId('leave-organization').click()
    const leave = teacher.getByTestId('leave-organization-dialog')
    await expect(leave).toContainText(`${orgName}を抜けますか？`)
    await expectAccessible(teacher)
    await leave.getByRole('button', { name: '抜ける' }).click()
    await expect(teacher.getByTestId('snackbar').locator('p')).toHaveText(`${orgName}を抜けました`)
    await expect(teacher.getByTestId('join-form')).toBeVisible()
    await expect(teacher.getByTestId('org-name')).toHaveCount(0)
    await join.getByLabel('招待コード').fill(newCode)
    await join.getByRole('button', { name: '参加する' }).click()
    await expect(teacher.getByTestId('org-members')).toContainText(TEACHER_NICKNAME)

    // The owner sees the new member; the member leaves while the owner's page still lists them: removing them says
    // they are gone and shows the list as it is.
    await gotoReady(page, '/organization_management')
    await expect(page.getByTestId('org-members')).toContainText(TEACHER_NICKNAME)
    await teacher.getByTestId('leave-organization').click()
    await teacher.getByTestId('leave-organization-dialog').getByRole('button', { name: '抜ける' }).click()
    await expect(teacher.getByTestId('join-form')).toBeVisible()
    const row = page.getByTestId('org-member').filter({ hasText: TEACHER_NICKNAME })
    await row.getByRole('button', { name: /外す/ }).click()
    await page.getByTestId('remove-member-dialog').getByRole('button', { name: '外す' }).click()
    await expect(page.getByTestId('snackbar').locator('p')).toHaveText('メンバーが見つかりませんでした')
    await expect(row).toHaveCount(0)

    // Back with the code (the owner's removal above changed nothing, the code included), then removed by the owner
    // (leaving the demo data as it was).
    await join.getByLabel('招待コード').fill(newCode)
    await join.getByRole('button', { name: '参加する' }).click()
    await expect(teacher.getByTestId('org-members')).toContainText(TEACHER_NICKNAME)

    // The owner hands the organisation to the teacher, who manages it (the code included) and hands it back. The
    // owner's 基本情報, read before and kept in the browser, says メンバー right after (not once its 30 s are up).
    await gotoReady(page, '/profile')
    await expect(page.getByText(/（(法人|グループ)・代表）/)).toBeVisible()
    await page.getByTestId('account-button').click()
    await page.getByTestId('account-menu').getByTestId('menu-organization-management').click()
    await expect(page.getByTestId('org-members')).toContainText(TEACHER_NICKNAME)
    await page.getByRole('button', { name: `${TEACHER_NICKNAME}にオーナーを譲る` }).click()
    const handOver = page.getByTestId('transfer-ownership-dialog')
    await expect(handOver).toContainText(`${TEACHER_NICKNAME}に団体のオーナーを譲りますか？`)
    await expectAccessible(page)
    await handOver.getByRole('button', { name: '譲る' }).click()
    await expect(page.getByTestId('snackbar').locator('p')).toHaveText(
      `${TEACHER_NICKNAME}にオーナーを譲りました`,
    )
    await expect(page.getByTestId('invitation-code')).toHaveCount(0)
    await expect(page.getByTestId('leave-organization')).toBeVisible()
    await page.getByTestId('account-button').click()
    await page.getByTestId('account-menu').getByRole('menuitem', { name: '基本情報' }).click()
    await expect(page).toHaveURL(/\/profile$/)
    await expect(page.getByText(/（(法人|グループ)・メンバー）/)).toBeVisible()
    await gotoReady(teacher, '/organization_management')
    await expect(teacher.getByTestId('invitation-code')).toHaveText(newCode)
    await expect(teacher.getByTestId('leave-organization')).toHaveCount(0)
    await teacher.getByRole('button', { name: `${OWNER_NICKNAME}にオーナーを譲る` }).click()
    await teacher.getByTestId('transfer-ownership-dialog').getByRole('button', { name: '譲る' }).click()
    await expect(teacher.getByTestId('snackbar').locator('p')).toHaveText(
      `${OWNER_NICKNAME}にオーナーを譲りました`,
    )
    await expect(teacher.getByTestId('leave-organization')).toBeVisible()

    // The teacher opens 団体を抜ける as the owner removes them (leaving the demo data as it was): leaving says they
    // are no longer in it and shows the page as it is now, not a dialog that can only fail again.
    await teacher.getByTestId('leave-organization').click()
    await gotoReady(page, '/organization_management')
    await expect(page.getByTestId('org-members')).toContainText(TEACHER_NICKNAME)
    await removeTeacher()
    await teacher.getByTestId('leave-organization-dialog').getByRole('button', { name: '抜ける' }).click()
    await expect(teacher.getByTestId('snackbar').locator('p')).toHaveText('団体が見つかりませんでした')
    await expect(teacher.getByTestId('leave-organization-dialog')).toHaveCount(0)
    await expect(teacher.getByTestId('join-form')).toBeVisible()
    await teacher.context().close()
  })

  test('the owner’s organisation form opened before a save in another tab is refused, not saved over it', async ({
    page,
  }) => {
    await login(page, OWNER, '/profile/edit_organization')
    const form = page.getByTestId('organization-form')
    const description = form.getByLabel('紹介文（任意）')
    const original = await description.inputValue()
    const other = await page.context().newPage()
    await gotoReady(other, '/profile/edit_organization')
    const otherForm = other.getByTestId('organization-form')

    // The other tab saves first…
    await otherForm.getByLabel('紹介文（任意）').fill(`${original}\n別のタブで書き足しました。`)
    await other.getByTestId('save-organization').click()
    await expect(other.getByTestId('snackbar').locator('p')).toHaveText('団体情報を保存しました')
    await other.close()

    // …so this tab, which read the organisation before, is told to reload instead of putting back the old text.
    await form.getByLabel('代表者名').fill('古い画面の代表者')
    await page.getByTestId('save-organization').click()
    await expect(page.getByTestId('snackbar').locator('p')).toHaveText(
      'この団体の情報は、この画面を開いたあとにほかの画面で変更されました。ページを読み込み直してから保存してください',
    )
    await gotoReady(page, '/profile/edit_organization')
    await expect(description).toHaveValue(`${original}\n別のタブで書き足しました。`)
    await expect(form.getByLabel('代表者名')).not.toHaveValue('古い画面の代表者')
    // Put the demo data back.
    await description.fill(original)
    await page.getByTestId('save-organization').click()
    await expect(page.getByTestId('snackbar').locator('p')).toHaveText('団体情報を保存しました')
  })

  test('the organisation form shows Japanese errors and keeps what was typed', async ({ page }) => {
    await login(page, TEACHER, '/profile/edit_organization')
    await expect(page.getByRole('heading', { level: 1, name: '団体の作成' })).toBeVisible()
    const form = page.getByTestId('organization-form')
    await form.getByLabel('団体名').fill('テストの会')
    await form.getByLabel('ウェブサイト（任意、https://）').fill('http://example.com')
    await page.getByTestId('save-organization').click()
    await expect(form.getByText('種別を選択してください')).toBeVisible()
    await expect(form.getByText('https:// で始まるURLを入力してください')).toBeVisible()
    await expect(form.getByLabel('団体名')).toHaveValue('テストの会')
    await expect(page).toHaveURL(/\/profile\/edit_organization$/)
    await expectAccessible(page)
  })

  test('a save after the session ended is refused with ログインしてください, and nothing is created', async ({
    page,
    context,
  }) => {
    await login(page, TEACHER, '/profile/edit_organization')
    await expect(page.getByRole('heading', { level: 1, name: '団体の作成' })).toBeVisible()
    const form = page.getByTestId('organization-form')
    await form.getByLabel('グループ').check()
    await form.getByLabel('団体名').fill('切れたセッションの会')
    await form.getByLabel('代表者名').fill('山田 花子')
    // Signed out elsewhere (or the cookie expired): the next write finds no session.
    await context.clearCookies()
    const answer = page.waitForResponse(
      (r) => r.url().includes('/_serverFn/') && r.request().method() === 'POST',
    )
    await page.getByTestId('save-organization').click()
    const response = await answer
    // A refusal the form reads (401 and its code), not a thrown error: the snackbar says only why.
    expect(response.status()).toBe(401)
    expect(response.headers()['x-error-code']).toBe('unauthorized')
    await expect(page.getByTestId('snackbar').locator('p')).toHaveText('ログインしてください')
    await expect(form.getByLabel('団体名')).toHaveValue('切れたセッションの会')
    await login(page, TEACHER, '/profile/edit_organization')
    await expect(page.getByRole('heading', { level: 1, name: '団体の作成' })).toBeVisible()
    await expect(form).toBeVisible()
  })
})

test('a parent is shown how to become an approved teacher instead of an organisation form the server refuses', async ({
  page,
}) => {
  await login(page, PARENT, '/organization_management')
  const create = page.getByRole('region', { name: '団体を作成する' })
  await expect(create.getByTestId('org-create-needs-verification')).toContainText(
    '団体を作成できるのは、本人確認が完了した先生です。',
  )
  await expect(create.getByRole('link', { name: '団体を作成' })).toHaveCount(0)
  await expect(page.getByLabel('招待コード')).toHaveCount(0)
  await gotoReady(page, '/profile/edit_organization')
  await expect(page.getByRole('heading', { level: 1, name: '団体の作成' })).toBeVisible()
  await expect(page.getByTestId('organization-form')).toHaveCount(0)
  await page.getByRole('link', { name: '先生として活動する' }).click()
  await expect(page).toHaveURL(/\/profile\/teacher$/)
})

test('a second class cannot take a lesson at the time of the teacher’s other class: the form says which (0056) @pc-only', async ({
  page,
}) => {
  await login(page, TEACHER, '/class_management')
  const stamp = Date.now().toString(36)
  const lesson = { days: lessonDays(6), hour: DEMO_TEACHER_HOURS.teacherOverlap }
  const first = `E2E 先にある授業 ${stamp}`
  await createClassWithLesson(page, {
    title: first,
    description: '同じ時間に別のクラスの授業は入れられません。',
    price: 0,
    capacity: 3,
    ...lesson,
  })
  await gotoReady(page, '/class_management/create')
  await fillClassForm(page, {
    title: `E2E 後から重ねる授業 ${stamp}`,
    description: '先にある授業と同じ時間です。',
    price: 0,
    capacity: 3,
  })
  await page.getByTestId('save-class').click()
  await expect(page).toHaveURL(/\/class_management\/edit\/\d+$/)
  const scheduleForm = page.getByTestId('schedule-form').last()
  // Half an hour into the other class's lesson.
  await scheduleForm.getByLabel('開始日時').fill(tokyoLocal(lesson.days, lesson.hour).replace(':00', ':30'))
  await scheduleForm.getByTestId('save-schedule').click()
  const time = `${String(lesson.hour).padStart(2, '0')}:00〜${String(lesson.hour + 1).padStart(2, '0')}:00`
  await expect(page.getByTestId('snackbar')).toContainText(
    new RegExp(`同じ時間に別のクラス「${first}」の授業（\\d{4}/\\d{1,2}/\\d{1,2}\\(.\\) ${time}）があります`),
  )
  await expect(page.getByTestId('schedule-row')).toHaveCount(0)
  // Starting as the other ends is fine.
  await scheduleForm.getByLabel('開始日時').fill(tokyoLocal(lesson.days, lesson.hour + 1))
  await scheduleForm.getByTestId('save-schedule').click()
  await expect(page.getByTestId('schedule-row')).toHaveCount(1)
})

test('a teacher whose device clock is days ahead still edits a lesson that has not started @pc-only', async ({
  page,
}) => {
  await login(page, TEACHER, '/class_management')
  const classId = await createClassWithLesson(page, {
    title: `E2E 時計のずれ ${Date.now().toString(36)}`,
    description: '端末の時計が進んでいても、始まっていない回は編集できます。',
    price: 0,
    capacity: 3,
    days: 2,
    // Two days ahead is the point of this test, so a retry takes a later hour of the same day, not a later day.
    hour: DEMO_TEACHER_HOURS.teacherClockAhead + 2 * test.info().retry,
  })
  // Four days ahead: by the device's own clock the lesson would be over, and its editing gone.
  await page.clock.install({ time: Date.now() + 4 * 86_400_000 })
  await gotoReady(page, `/class_management/edit/${classId}`)
  const row = page.getByTestId('schedule-row')
  await expect(row.getByTestId('schedule-status')).toHaveText('予定')
  await row.getByRole('button', { name: '編集', exact: true }).click()
  await expect(row.getByTestId('schedule-form')).toBeVisible()
})

test('a lesson that starts while its edit form is open keeps the typed link and offers only ミーティングURLを変更, which saves @pc-only', async ({
  page,
}) => {
  await login(page, TEACHER, '/class_management')
  const lesson = { days: lessonDays(3), hour: DEMO_TEACHER_HOURS.teacherStartsWhileEditing }
  const classId = await createClassWithLesson(page, {
    title: `E2E 開いたまま開始 ${Date.now().toString(36)}`,
    description: '編集ページを開いたまま授業の開始時刻を迎えます。',
    price: 0,
    capacity: 3,
    ...lesson,
  })
  await page.clock.install()
  await gotoReady(page, `/class_management/edit/${classId}`)
  const row = page.getByTestId('schedule-row')
  // The teacher opens the full form and types a new link, and the lesson starts before they save.
  await row.getByRole('button', { name: '編集', exact: true }).click()
  await row
    .getByTestId('schedule-form')
    .getByLabel('ミーティングURL（任意）')
    .fill('https://meet.manabi.example/typed-before-start')
  // Ten minutes past the start pass on the page (its clock runs on; the page counts from the server's answer
  // plus the time passed here). The server's own clock stays put: it takes a new link either way.
  const startsAt = Date.parse(`${tokyoLocal(lesson.days, lesson.hour)}:00+09:00`)
  await page.clock.fastForward(startsAt + 10 * 60_000 - (await page.evaluate(() => Date.now())))
  await expect(row.getByTestId('schedule-status')).toHaveText('開催中')
  // Only the link can change now: the form says so and keeps the link as typed.
  const urlForm = row.getByTestId('meeting-url-form')
  await expect(urlForm.getByTestId('started-while-editing')).toContainText(
    '日時と定員は変更できなくなりました',
  )
  await expect(urlForm.getByLabel('ミーティングURL')).toHaveValue(
    'https://meet.manabi.example/typed-before-start',
  )
  await expect(row.getByTestId('schedule-form')).toHaveCount(0)
  // Closed and opened again after the start, the form offers the link alone, with no note.
  const toggle = row.getByRole('button', { name: 'ミーティングURLを変更' })
  await toggle.click()
  await expect(urlForm).toHaveCount(0)
  await toggle.click()
  await expect(urlForm.getByTestId('started-while-editing')).toHaveCount(0)
  await urlForm.getByLabel('ミーティングURL').fill('https://meet.manabi.example/moved-room')
  await urlForm.getByRole('button', { name: '変更を保存' }).click()
  await expect(page.getByTestId('snackbar')).toContainText('ミーティングURLを変更しました')
  await expect(row).toContainText('ミーティングURL：https://meet.manabi.example/moved-room')
})
