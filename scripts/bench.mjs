// `npm run bench`: first-load JavaScript of key pages in KB gzip, measured in a real Chromium against the
// production build. (Later issues add their figures here.)
import { spawn } from 'node:child_process'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { ensureChromium } from './find-chromium.mjs'

const PORT = Number(process.env.BENCH_PORT ?? 3200)
const origin = `http://localhost:${PORT}`
const pages = (process.env.BENCH_PAGES ?? '/').split(',')
const BUDGET_KB = 130

async function waitForServer(url, ms = 180_000) {
  const until = Date.now() + ms
  while (Date.now() < until) {
    try {
      const r = await fetch(url)
      if (r.ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 300))
  }
  throw new Error(`server did not start: ${url}`)
}

const server = spawn(process.execPath, ['scripts/start.mjs'], {
  env: {
    ...process.env,
    PORT: String(PORT),
    SITE_ORIGIN: origin,
    DATA_DIR: process.env.DATA_DIR ?? '.data/bench',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
})

try {
  await waitForServer(`${origin}/`)
  const browser = await chromium.launch({
    executablePath: ensureChromium(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  })
  const rows = []
  for (const path of pages) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    const scripts = new Map()
    page.on('response', async (res) => {
      if (res.request().resourceType() !== 'script') return
      try {
        scripts.set(res.url(), await res.body())
      } catch {}
    })
    await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' })
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    let raw = 0
    let gz = 0
    for (const body of scripts.values()) {
      raw += body.length
      gz += gzipSync(body, { level: 9 }).length
    }
    rows.push({
      page: path,
      files: scripts.size,
      rawKB: +(raw / 1024).toFixed(1),
      gzipKB: +(gz / 1024).toFixed(1),
    })
    await context.close()
  }
  await browser.close()
  console.log('\nFirst-load JavaScript (all scripts the page loads before it is interactive)')
  console.table(rows)
  for (const r of rows) {
    console.log(`${r.page}: ${r.gzipKB} KB gzip ${r.gzipKB <= BUDGET_KB ? '≤' : '>'} budget ${BUDGET_KB} KB`)
  }
} finally {
  server.kill()
}
