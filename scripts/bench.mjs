// `npm run bench`: measures the production build on loopback, in one run of one build:
//  1. first-load JavaScript of key pages in KB gzip (a real Chromium; budget 130 KB each):
//     `/`, `/class_search`, the newest class's page and its teacher's page by default (BENCH_PAGES=/a,/b to choose
//     others);
//  2. SSR throughput: requests per second of `/class_search?q=英語` against `/company` (a static page), with
//     bounded concurrency for a bounded time (BENCH_SSR_SECONDS, default 10 s each; BENCH_CONCURRENCY, default 8);
//     and the same search with every request distinct (a price limit above every price, counting up), so that
//     the server's search-result cache never answers: the cost of a search nobody made in the last 30 s;
//  3. Lighthouse (mobile settings, the system Chromium) for the same pages: performance, accessibility,
//     best practices and SEO (BENCH_LIGHTHOUSE=0 skips it).
//  4. a 5-minute mixed soak at 16 connections on PostgreSQL (scripts/bench-soak.mjs; BENCH_SOAK_SECONDS, 0 skips);
//  5. notifications on PostgreSQL (scripts/bench-notify.ts): mails per second through the job runner to a local
//     SMTP server, and write → live event on another instance, p50/p99 (BENCH_NOTIFY=0 skips).
// Every request goes to this machine's own server on localhost and every loop stops by itself.
import { spawn, spawnSync } from 'node:child_process'
import { chromium } from '@playwright/test'
import { ensureChromium } from './find-chromium.mjs'
import { FIRST_LOAD_BUDGET_KB, firstLoadJs } from './first-load-js.mjs'
import { SERVER_NODE_FLAGS } from './server-flags.mjs'
import { warmCompressedAssets } from './static-files.mjs'

const PORT = Number(process.env.BENCH_PORT ?? 3200)
const origin = `http://localhost:${PORT}`
const SSR_SECONDS = Number(process.env.BENCH_SSR_SECONDS ?? 10)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8)
const LIGHTHOUSE = process.env.BENCH_LIGHTHOUSE !== '0'
const chromeFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
]

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

/** The page of the newest published class and its teacher's page, read from the API of the server under test. */
async function classAndTeacherPaths() {
  const r = await fetch(`${origin}/v1/class_works/new_arrivals_by_class?limit=1`)
  const [first] = r.ok ? await r.json() : []
  if (!first) throw new Error('no published class to measure')
  return [`/class_search/detail/${first.id}`, `/teacher/detail/${first.teacher.id}`]
}

async function firstLoadOfPages(browser, pages) {
  const rows = []
  for (const path of pages) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const { files, rawKB, gzipKB } = await firstLoadJs(await context.newPage(), `${origin}${path}`)
    rows.push({ page: path, files: files.length, rawKB, gzipKB })
    await context.close()
  }
  return rows
}

/**
 * Requests per second of one path: CONCURRENCY loops, each sending one request after another until time is up.
 * With `distinct`, each request adds `&price_max=` a number never sent before (above every price).
 */
async function ssrThroughput(path, seconds, { distinct = false } = {}) {
  let sent = 0
  const urlOf = () => `${origin}${path}${distinct ? `&price_max=${5_000_000 + sent++}` : ''}`
  const latencies = []
  let errors = 0
  const run = async (until) => {
    while (Date.now() < until) {
      const t = performance.now()
      try {
        const r = await fetch(urlOf(), { headers: { 'accept-encoding': 'identity' } })
        await r.arrayBuffer()
        if (r.ok) latencies.push(performance.now() - t)
        else errors++
      } catch {
        errors++
      }
    }
  }
  // Warm up (JIT, caches) before counting.
  await Promise.all(Array.from({ length: CONCURRENCY }, () => run(Date.now() + 1500)))
  latencies.length = 0
  errors = 0
  const started = performance.now()
  const until = Date.now() + seconds * 1000
  await Promise.all(Array.from({ length: CONCURRENCY }, () => run(until)))
  const elapsed = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const pct = (p) =>
    +(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0).toFixed(1)
  return {
    page: distinct ? `${path}&price_max=(distinct)` : path,
    requests: latencies.length,
    errors,
    rps: +(latencies.length / elapsed).toFixed(1),
    p50ms: pct(0.5),
    p95ms: pct(0.95),
  }
}

async function lighthouseScores(pages) {
  const { default: lighthouse } = await import('lighthouse')
  const chromeLauncher = await import('chrome-launcher')
  const chrome = await chromeLauncher.launch({
    chromePath: ensureChromium(),
    chromeFlags: ['--headless=new', ...chromeFlags],
  })
  const rows = []
  try {
    for (const path of pages) {
      // Lighthouse's defaults are the mobile settings (Moto G Power screen, simulated slow 4G, 4x CPU slowdown).
      const result = await lighthouse(`${origin}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      })
      const lhr = result?.lhr
      const score = (id) => Math.round((lhr?.categories[id]?.score ?? 0) * 100)
      const failed = Object.values(lhr?.audits ?? {})
        .filter(
          (a) =>
            a.score !== null &&
            a.score < 1 &&
            a.scoreDisplayMode !== 'informative' &&
            a.scoreDisplayMode !== 'manual' &&
            a.scoreDisplayMode !== 'notApplicable',
        )
        .filter((a) => ['binary'].includes(a.scoreDisplayMode) || a.score < 0.9)
        .map((a) => a.id)
      rows.push({
        page: path,
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        seo: score('seo'),
        LCPms: Math.round(lhr?.audits['largest-contentful-paint']?.numericValue ?? 0),
        TBTms: Math.round(lhr?.audits['total-blocking-time']?.numericValue ?? 0),
        CLS: +(lhr?.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3),
        flagged: failed.slice(0, 8).join(' '),
      })
    }
  } finally {
    await chrome.kill()
  }
  return rows
}

const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'scripts/start.mjs'], {
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
  const pages = process.env.BENCH_PAGES
    ? process.env.BENCH_PAGES.split(',')
    : ['/', '/class_search', ...(await classAndTeacherPaths())]

  const browser = await chromium.launch({ executablePath: ensureChromium(), args: chromeFlags })
  const js = await firstLoadOfPages(browser, pages)
  await browser.close()
  console.log('\nFirst-load JavaScript (all scripts the page loads before it is interactive)')
  console.table(js)
  for (const r of js) {
    console.log(
      `${r.page}: ${r.gzipKB} KB gzip ${r.gzipKB <= FIRST_LOAD_BUDGET_KB ? '≤' : '>'} budget ${FIRST_LOAD_BUDGET_KB} KB`,
    )
  }

  if (SSR_SECONDS > 0) {
    const searchPath = `/class_search?q=${encodeURIComponent('英語')}`
    const search = await ssrThroughput(searchPath, SSR_SECONDS)
    const company = await ssrThroughput('/company', SSR_SECONDS)
    const uncached = await ssrThroughput(searchPath, SSR_SECONDS, { distinct: true })
    console.log(`\nSSR throughput (${SSR_SECONDS} s each, ${CONCURRENCY} concurrent requests, loopback)`)
    console.table([search, company, uncached])
    console.log(
      `search / company = ${(search.rps / company.rps).toFixed(2)} (search ${search.rps} req/s, company ${company.rps} req/s)`,
    )
    console.log(
      `distinct searches / company = ${(uncached.rps / company.rps).toFixed(2)} (every request a new search: ${uncached.rps} req/s)`,
    )
  }

  if (LIGHTHOUSE) {
    // The first loads above started the scripts' best compression in the background: let it finish first.
    await warmCompressedAssets(origin, pages)
    const scores = await lighthouseScores(pages)
    console.log('\nLighthouse (mobile; goals: performance ≥ 95, accessibility, best practices and SEO 100)')
    console.table(scores)
  }
} finally {
  server.kill()
}

// 4. The crowd soak on PostgreSQL (issue #13): BENCH_SOAK_SECONDS (300; 0 skips it).
if (process.env.BENCH_SOAK_SECONDS !== '0') {
  const { soak } = await import('./bench-soak.mjs')
  await soak()
}

// 5. Notifications (issue #14).
if (process.env.BENCH_NOTIFY !== '0') {
  const r = spawnSync('npx', ['tsx', 'scripts/bench-notify.ts'], { stdio: 'inherit', env: process.env })
  if (r.status !== 0) process.exitCode = r.status ?? 1
}
