// First-load JavaScript of one page, counted one way for `npm run bench` and the e2e budget test: every script
// the page loads until the network is idle and the page has hydrated (chunks a part loads when it comes into
// view count when it is in view at load), each compressed with gzip -9, in KB of 1024 bytes.
import { gzipSync } from 'node:zlib'

/** Issue 5's budget, per page (docs/decisions/0008). */
export const FIRST_LOAD_BUDGET_KB = 130

/**
 * Opens `url` in `page` (a Playwright page, ideally 390×844 as the bench's) and returns the scripts it loaded.
 * @param {import('@playwright/test').Page} page
 * @param {string} url
 */
export async function firstLoadJs(page, url) {
  const scripts = new Map()
  const onResponse = async (res) => {
    if (res.request().resourceType() !== 'script') return
    try {
      scripts.set(res.url(), await res.body())
    } catch {}
  }
  page.on('response', onResponse)
  try {
    await page.goto(url, { waitUntil: 'networkidle' })
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await page.waitForLoadState('networkidle')
  } finally {
    page.off('response', onResponse)
  }
  let raw = 0
  let gzip = 0
  const files = []
  for (const [fileUrl, body] of scripts) {
    const gz = gzipSync(body, { level: 9 }).length
    raw += body.length
    gzip += gz
    files.push({ path: new URL(fileUrl).pathname, gzipBytes: gz })
  }
  return { files, rawKB: +(raw / 1024).toFixed(1), gzipKB: +(gzip / 1024).toFixed(1) }
}
