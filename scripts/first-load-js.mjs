// First-load JavaScript of one page, counted one way for `npm run bench` and the e2e budget test: every script
// the page loads until it has hydrated and no script has been asked for or arrived for QUIET_MS (chunks a part
// loads when it is in view at load count), each compressed with gzip -9, in KB of 1024 bytes.
import { gzipSync } from 'node:zlib'

/** Issue 5's budget, per page (docs/decisions/0008). */
export const FIRST_LOAD_BUDGET_KB = 130

/** How long no script may be in flight, after hydration, before the count is taken. */
const QUIET_MS = 1000

/**
 * Opens `url` in `page` (a Playwright page, ideally 390×844 as the bench's) and returns the scripts it loaded.
 * A script whose body cannot be read fails the count rather than leaving it out.
 * @param {import('@playwright/test').Page} page
 * @param {string} url
 */
export async function firstLoadJs(page, url) {
  const bodies = new Map()
  let inFlight = 0
  let lastActivity = Date.now()
  const isScript = (request) => request.resourceType() === 'script'
  const onRequest = (request) => {
    if (!isScript(request)) return
    inFlight++
    lastActivity = Date.now()
  }
  const onDone = (request) => {
    if (!isScript(request)) return
    inFlight--
    lastActivity = Date.now()
  }
  const onResponse = (res) => {
    if (!isScript(res.request())) return
    const body = res.body()
    body.catch(() => {}) // awaited below, where a failed read fails the count; not an unhandled rejection meanwhile
    bodies.set(res.url(), body)
  }
  page.on('request', onRequest)
  page.on('requestfinished', onDone)
  page.on('requestfailed', onDone)
  page.on('response', onResponse)
  try {
    await page.goto(url, { waitUntil: 'load' })
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    // Parts in view hydrate after the page and only then ask for their code: wait until scripts have stopped.
    while (inFlight > 0 || Date.now() - lastActivity < QUIET_MS) await page.waitForTimeout(100)
  } finally {
    page.off('request', onRequest)
    page.off('requestfinished', onDone)
    page.off('requestfailed', onDone)
    page.off('response', onResponse)
  }
  let raw = 0
  let gzip = 0
  const files = []
  for (const [fileUrl, pending] of bodies) {
    const body = await pending
    const gz = gzipSync(body, { level: 9 }).length
    raw += body.length
    gzip += gz
    files.push({ path: new URL(fileUrl).pathname, gzipBytes: gz })
  }
  return { files, rawKB: +(raw / 1024).toFixed(1), gzipKB: +(gzip / 1024).toFixed(1) }
}
