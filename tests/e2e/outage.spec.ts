import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import postgres from 'postgres'
import { Relay } from '../integration/support/tcp-relay'
import { freePort } from './helpers'

// The database goes away under a running server (a TCP relay in front of PostgreSQL is cut), then comes back:
// pages answer 503 with the error page within 5 s (never 404, never a hang), /v1 answers 503 with Retry-After,
// /readyz says so, /healthz stays up, and everything works again without a restart.

const ADMIN_URL = process.env.TEST_DATABASE_URL

test.describe('the database goes away and comes back @pc-only', () => {
  test.describe.configure({ timeout: 180_000 })
  const name = `manabi_outage_${randomUUID().slice(0, 8)}`
  const dataDir = mkdtempSync(path.join(tmpdir(), 'manabi-outage-'))
  let port = 0
  let origin = ''
  let relay: Relay
  let app: ChildProcess | undefined
  let serverErr = ''
  let exited = ''

  test.beforeAll(async () => {
    if (!ADMIN_URL) throw new Error('TEST_DATABASE_URL must name a PostgreSQL server (.ci/run sets it)')
    const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create database "${name}"`)
    await admin.end()
    port = await freePort()
    origin = `http://127.0.0.1:${port}`
    const target = new URL(ADMIN_URL)
    relay = new Relay({ host: target.hostname, port: Number(target.port || 5432) })
    await relay.up()
    const url = new URL(ADMIN_URL)
    url.host = `127.0.0.1:${relay.port}`
    url.pathname = `/${name}`
    app = spawn(process.execPath, ['scripts/serve.mjs'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SITE_ORIGIN: origin,
        DATA_DIR: dataDir,
        DATABASE_URL: url.toString(),
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    // A server that dies must say why in the report. It did, twice in CI (a reset, then a refusal right after the
    // cut): the PostgreSQL driver threw from a timer (patches/postgres+3.4.9.patch, tests/integration/pg-driver).
    app.stderr?.on('data', (chunk: Buffer) => {
      serverErr = (serverErr + chunk.toString()).slice(-20_000)
    })
    app.on('exit', (code, signal) => {
      exited = `the server exited (code ${code}, signal ${signal})`
    })
    const until = Date.now() + 120_000
    while (Date.now() < until) {
      if (exited) throw new Error(`${exited}\n${serverErr}`)
      const ok = await fetch(`${origin}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
      if (ok) return
      await new Promise((r) => setTimeout(r, 300))
    }
    throw new Error('the server did not become ready')
  })

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a hook needs from this pattern
  test.afterEach(async ({}, info) => {
    if (info.status === info.expectedStatus) return
    await info.attach('server stderr', { body: `${exited}\n${serverErr}`, contentType: 'text/plain' })
  })

  test.afterAll(async () => {
    app?.removeAllListeners('exit')
    app?.kill('SIGKILL')
    await relay?.down()
    if (ADMIN_URL) {
      const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} })
      await admin.unsafe(`drop database if exists "${name}" with (force)`)
      await admin.end()
    }
    rmSync(dataDir, { recursive: true, force: true })
  })

  test('503 within 5 s while it is away, service again without a restart', async ({ page }) => {
    const pages = ['/class_search/detail/1', '/teacher/detail/1', '/magazine/detail/1', '/']
    for (const p of pages) expect((await fetch(`${origin}${p}`)).status, p).toBe(200)

    await relay.down()
    // A request that reaches the server in the instant before it has noticed the cut may still be answered from
    // the public read cache (valid data: nothing can be written meanwhile). The loss empties that cache and turns
    // it off, so within 5 s every page answers 503.
    const cut = Date.now()
    await expect
      .poll(async () => (await fetch(`${origin}${pages[0]}`)).status, { timeout: 5_000, intervals: [50] })
      .toBe(503)
    expect(Date.now() - cut).toBeLessThan(5_000)
    for (const p of pages) {
      const began = Date.now()
      const res = await fetch(`${origin}${p}`)
      expect(Date.now() - began, p).toBeLessThan(5_000)
      expect(res.status, p).toBe(503)
      expect(res.headers.get('retry-after'), p).toBeTruthy()
      expect(await res.text(), p).not.toContain('お探しのページは見つかりませんでした')
    }
    // The browser shows the error page (not "not found").
    const shown = await page.goto(`${origin}/class_search/detail/1`)
    expect(shown?.status()).toBe(503)
    await expect(page.getByText('サーバーで問題が発生しました。')).toBeVisible()
    // In the simple layout (spec §2), not inside the page's header and navigation.
    await expect(page.locator('[data-layout="simple"]')).toBeVisible()
    await expect(page.getByTestId('site-header')).toHaveCount(0)

    for (const [method, p] of [
      ['GET', '/v1/class_works/1'],
      ['GET', '/v1/master/categories'],
      ['POST', '/v1/class_works/search'],
      ['GET', '/v1/magazine_articles'],
    ] as const) {
      const res = await fetch(`${origin}${p}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'POST' ? '{}' : undefined,
      })
      expect(res.status, p).toBe(503)
      expect(res.headers.get('retry-after'), p).toBe('5')
      expect((await res.json()).code, p).toBe('database_unavailable')
    }
    // Feeds and images made from the database answer 503 with Retry-After too, not the server's bare 500.
    for (const p of ['/sitemap.xml', '/og/class/1.png', `/calendar/${'a'.repeat(43)}.ics`]) {
      const res = await fetch(`${origin}${p}`)
      expect(res.status, p).toBe(503)
      expect(res.headers.get('retry-after'), p).toBeTruthy()
      expect(res.headers.get('cache-control'), p).toBe('no-store')
    }
    expect((await fetch(`${origin}/readyz`)).status).toBe(503)
    expect((await fetch(`${origin}/healthz`)).status).toBe(200)

    await relay.up()
    await expect
      .poll(async () => (await fetch(`${origin}/class_search/detail/1`)).status, { timeout: 20_000 })
      .toBe(200)
    // Pooled connections that died with the relay are each found out once; every page is back within seconds.
    for (const p of pages)
      await expect
        .poll(async () => (await fetch(`${origin}${p}`)).status, { timeout: 20_000, message: p })
        .toBe(200)
    expect((await fetch(`${origin}/readyz`)).status).toBe(200)
  })
})
