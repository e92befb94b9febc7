import { expect, type Page, test } from '@playwright/test'
import { gotoReady, login, registerNewParent } from './helpers'

// Live updates (GET /events): a message the teacher sends reaches the parent's open pages without a reload —
// the header's unread badge and the open message room. The path under test is the real one: the send commits a
// `notify.message` job, the job runner publishes a member event (publishMemberEvent), the parent's stream
// passes it on and the page refetches.

const TEACHER = 'teacher@manabi.example'
/** How soon the parent's page must show it once the teacher's send has returned. */
const LIVE_WITHIN_MS = 2_000

/** The header's unread badge as a number (0 when it is not shown). */
async function unreadBadge(page: Page): Promise<number> {
  const badge = page.getByTestId('unread-badge')
  if ((await badge.count()) === 0) return 0
  return Number(((await badge.textContent()) ?? '').replace(/\D/g, ''))
}

/** The page's stream is open (set by useLiveUpdates on <html>). */
async function expectLive(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-live', 'open')
}

/** The teacher sends `text` in the open room and sees it listed (the send has committed). */
async function send(teacher: Page, text: string) {
  const room = teacher.getByTestId('room-view')
  await room.getByTestId('message-input').fill(text)
  await room.getByTestId('message-send').click()
  await expect(room.getByTestId('message').last()).toContainText(text)
}

/** A mark on the window that a reload or a full navigation would remove. */
async function markNoReload(page: Page) {
  await page.evaluate(() => {
    ;(window as unknown as { __live?: boolean }).__live = true
  })
}
const stillSamePage = (page: Page) =>
  page.evaluate(() => (window as unknown as { __live?: boolean }).__live === true)

// Shared demo teacher, new parent: runs once (PC), so the teacher's two projects do not write at once.
test('live updates: the teacher’s message updates the parent’s header badge and open room without a reload @pc-only', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(120_000)
  // A parent of its own: no other spec reads or writes its messages and notices while this one counts them.
  await registerNewParent(page, context, 'らいぶ')

  const teacherContext = await browser.newContext({
    baseURL: new URL(page.url()).origin,
    viewport: page.viewportSize(),
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
  })
  try {
    const teacher = await teacherContext.newPage()
    await login(teacher, TEACHER, '/class_management?tab=published')
    const classHref = await teacher.getByRole('link', { name: '公開ページ' }).first().getAttribute('href')
    expect(classHref).toMatch(/^\/class_search\/detail\/\d+$/)

    // The parent follows the teacher (so they may write to each other) and opens the room with them.
    await gotoReady(page, classHref!)
    const teacherHref = await page.locator('a[href^="/teacher/detail/"]').first().getAttribute('href')
    await gotoReady(page, teacherHref!)
    const follow = page.getByTestId('follow-button')
    await follow.click()
    await expect(follow).toHaveAttribute('aria-pressed', 'true')
    // Pressed at once (optimistic); saved when the snackbar says so. Leaving before that could cancel the request,
    // and /message then offered no teacher to write to (a failure seen in a full run).
    await expect(page.getByTestId('snackbar')).toContainText('フォローしました')
    await gotoReady(page, '/message')
    const roomsBefore = await page.getByTestId('room-item').count()
    await page.getByTestId('new-room-partner').selectOption({ index: 1 })
    await page.getByTestId('new-room-start').click()
    // No room yet (none listed, none made): it is created with the first message.
    await expect(page).toHaveURL(/\/message\?to=\d+$/)
    await expect(page.getByTestId('room-view')).toContainText('最初のメッセージを送ってみましょう。')
    await gotoReady(page, page.url())
    await expect(page.getByTestId('room-item')).toHaveCount(roomsBefore)
    await page
      .getByTestId('room-view')
      .getByTestId('message-input')
      .fill('はじめまして。よろしくお願いします。')
    await page.getByTestId('room-view').getByTestId('message-send').click()
    await expect(page).toHaveURL(/\/message\?room=\d+$/)
    await expect(page.getByTestId('room-item')).toHaveCount(roomsBefore + 1)
    const roomId = new URL(page.url()).searchParams.get('room')

    // 1. The parent is on My Page; the teacher writes: the header badge counts it, without a reload.
    await gotoReady(page, '/mypage')
    await expectLive(page)
    await markNoReload(page)
    const before = await unreadBadge(page)
    await gotoReady(teacher, `/message?room=${roomId}`)
    await send(teacher, `ライブ更新のテストです（${Date.now()}）`)
    await expect(page.getByTestId('unread-badge')).toHaveText(String(before + 1), { timeout: LIVE_WITHIN_MS })
    expect(await stillSamePage(page)).toBe(true)

    // 1b. The room opened while its messages cannot be loaded (a 503, offline) marks nothing read.
    const posts: string[] = []
    const onRequest = (r: { url(): string; method(): string }) => {
      if (r.url().includes('/_serverFn/') && r.method() === 'POST') posts.push(r.url())
    }
    page.on('request', onRequest)
    let refused = 0
    await page.route('**/_serverFn/**', (route) => {
      if (route.request().method() !== 'GET') return route.continue()
      refused++
      return route.fulfill({ status: 503, contentType: 'application/json', body: '{}' })
    })
    await gotoReady(page, `/message?room=${roomId}`)
    await expect(page.getByTestId('room-view')).toBeVisible()
    await expect.poll(() => refused).toBeGreaterThan(0)
    expect(posts).toEqual([])
    await page.unroute('**/_serverFn/**')
    page.off('request', onRequest)

    // 2. The parent has the room open; the teacher writes again: it appears there, without a reload.
    await gotoReady(page, `/message?room=${roomId}`)
    await expectLive(page)
    await markNoReload(page)
    const text = `続けてもう一通（${Date.now()}）`
    await send(teacher, text)
    await expect(page.getByTestId('room-view').getByTestId('message').last()).toContainText(text, {
      timeout: LIVE_WITHIN_MS,
    })
    expect(await stillSamePage(page)).toBe(true)

    // 3. The parent's tab is hidden (a phone locked with the room open): the message still arrives, but is not
    // marked read (its badge and mail stay) until the page is seen again.
    const setVisibility = (state: 'hidden' | 'visible') =>
      page.evaluate((s) => {
        Object.defineProperty(document, 'visibilityState', { value: s, configurable: true })
        Object.defineProperty(document, 'hidden', { value: s === 'hidden', configurable: true })
        document.dispatchEvent(new Event('visibilitychange'))
      }, state)
    await setVisibility('hidden')
    // The read marks of step 2 have settled before counting (the page writes nothing else while hidden).
    await page.waitForTimeout(1_000)
    const reads: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/_serverFn/') && r.method() === 'POST') reads.push(r.url())
    })
    const unseen = `見ていない間の一通（${Date.now()}）`
    await send(teacher, unseen)
    await expect(page.getByTestId('room-view').getByTestId('message').last()).toContainText(unseen, {
      timeout: LIVE_WITHIN_MS,
    })
    // Long enough for the read mark the message would have caused to go out.
    await page.waitForTimeout(1_000)
    expect(reads).toEqual([])
    await setVisibility('visible')
    await expect.poll(() => reads.length).toBeGreaterThan(0)
  } finally {
    await teacherContext.close()
  }
})

test('GET /events refuses a visitor with 401 and a Japanese message', async ({ request }) => {
  const res = await request.get('/events')
  expect(res.status()).toBe(401)
  expect(res.headers()['cache-control']).toContain('no-store')
  expect(await res.json()).toEqual({ code: 'unauthorized', message: 'ログインが必要です' })
})
