// The crowd soak of `npm run bench` (issue #13): one production server on PostgreSQL, a mixed load at 16
// concurrent connections for BENCH_SOAK_SECONDS (300) after a 20 s warm-up. Prints req/s, p50, p99, errors and the
// server's RSS growth after warm-up. PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL (a fresh database is
// created and dropped). Every request goes to this machine's own server on localhost; every loop stops by itself.
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { importJWK, SignJWT } from 'jose'
import postgres from 'postgres'

const PORT = Number(process.env.BENCH_SOAK_PORT ?? 3250)
const origin = `http://127.0.0.1:${PORT}`
const CONCURRENCY = Number(process.env.BENCH_SOAK_CONCURRENCY ?? 16)
const WARMUP_S = Number(process.env.BENCH_SOAK_WARMUP_SECONDS ?? 20)
const SESSIONS = 32

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

function rssKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
}

/** Signs in through the embedded provider's test login with a small cookie jar; returns the Cookie header. */
async function login(email) {
  const jar = new Map()
  let url = `${origin}/auth/login?${new URLSearchParams({ login_hint: email, returnTo: '/mypage' })}`
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    })
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const i = pair.indexOf('=')
      const value = pair.slice(i + 1)
      if (value === '' || /Max-Age=0/i.test(c)) jar.delete(pair.slice(0, i))
      else jar.set(pair.slice(0, i), value)
    }
    const location = res.headers.get('location')
    await res.arrayBuffer()
    if (!location) break
    url = new URL(location, origin).href
  }
  const session = [...jar].filter(([k]) => /manabi_session/.test(k))
  if (session.length === 0) throw new Error('soak: the test login did not give a session')
  return session.map(([k, v]) => `${k}=${v}`).join('; ')
}

/** Signs access tokens as the embedded provider does, with its private key from DATA_DIR (app/idp/keys.ts). */
async function minter(dataDir) {
  await fetch(`${origin}/idp/.well-known/openid-configuration`)
  const { keys } = JSON.parse(readFileSync(path.join(dataDir, 'idp', 'jwks.json'), 'utf8'))
  const key = await importJWK(keys[0], 'RS256')
  return (sub, claims) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: keys[0].kid, typ: 'at+jwt' })
      .setIssuer(`${origin}/idp`)
      .setAudience(`${origin}/v1`)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key)
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

export async function soak({ seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 300) } = {}) {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (!adminUrl) {
    console.log('\nSoak: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL server)')
    return undefined
  }
  const name = `manabi_soak_${randomUUID().slice(0, 8)}`
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database "${name}"`)
  const dbUrl = new URL(adminUrl)
  dbUrl.pathname = `/${name}`
  const dataDir = mkdtempSync(path.join(tmpdir(), 'manabi-soak-'))
  const server = spawn(process.execPath, ['scripts/serve.mjs'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      SITE_ORIGIN: origin,
      DATA_DIR: dataDir,
      DATABASE_URL: dbUrl.toString(),
      IDP_TEST_LOGIN: '1',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    const until = Date.now() + 180_000
    for (;;) {
      if (
        await fetch(`${origin}/readyz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break
      if (Date.now() > until) throw new Error('soak: the server did not become ready')
      await sleep(300)
    }
    const entries = await (await fetch(`${origin}/v1/sitemap_entries`)).json()
    const classIds = entries.class_works.map((e) => e.id)
    const teacherIds = entries.teachers.map((e) => e.id)
    // Signed-in browsers: SESSIONS test logins of the demo accounts, each its own cookie jar (its own session and
    // access token, so that no one session makes more /v1 calls than a person could).
    const accounts = ['parent@manabi.example', 'teacher@manabi.example', 'owner@manabi.example']
    const cookies = []
    for (let i = 0; i < SESSIONS; i++) cookies.push(await login(accounts[i % accounts.length]))
    // /v1 clients: one registered member per connection, with access tokens signed by the embedded provider's key.
    const mint = await minter(dataDir)
    const tokens = await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, c) => {
        const token = await mint(`soak|m${c}`, { email: `soak${c}@manabi.example`, email_verified: true })
        const res = await fetch(`${origin}/v1/users`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            nickname: `負荷${c}`,
            name: `負荷 ${c}`,
            name_kana: 'フカ',
            role: 'parent',
            profession_id: 1,
            agreed_to_terms: true,
          }),
        })
        if (res.status !== 201) throw new Error(`soak: registering a member gave ${res.status}`)
        return token
      }),
    )
    const toggles = new Array(CONCURRENCY).fill(0)
    const terms = ['英語', 'プログラミング', '算数', 'ピアノ', '将棋', '絵', '理科', 'ダンス']
    const pick = (list, i) => list[i % list.length]
    // [weight, kind, request(i, connection)]: public pages 55, public /v1 15, signed-in renders 20, /v1 as a member 10.
    const mix = [
      [10, 'home', () => ({ path: '/' })],
      [15, 'search page', (i) => ({ path: `/class_search?q=${encodeURIComponent(pick(terms, i))}` })],
      [17, 'class page', (i) => ({ path: `/class_search/detail/${pick(classIds, i)}` })],
      [8, 'teacher page', (i) => ({ path: `/teacher/detail/${pick(teacherIds, i)}` })],
      [5, 'magazine', () => ({ path: '/magazine' })],
      [5, '/v1 categories', () => ({ path: '/v1/master/categories' })],
      [
        10,
        '/v1 search',
        (i) => ({
          path: '/v1/class_works/search',
          method: 'POST',
          body: { q: pick(terms, i + 3), page: 1 + (i % 3) },
        }),
      ],
      [8, 'my page (signed in)', (i) => ({ path: '/mypage', cookie: pick(cookies, i) })],
      [
        6,
        'class page (signed in)',
        (i) => ({ path: `/class_search/detail/${pick(classIds, i)}`, cookie: pick(cookies, i + 1) }),
      ],
      [6, 'attendance (signed in)', (i) => ({ path: '/class_attendance', cookie: pick(cookies, i + 2) })],
      // A favorite toggled on and off (each connection its own member and class: the state alternates).
      [
        8,
        '/v1 favorite toggle',
        (_i, c) => ({
          path: `/v1/users/favorites/${pick(classIds, c)}`,
          method: toggles[c]++ % 2 ? 'DELETE' : 'POST',
          token: tokens[c],
        }),
      ],
      [2, '/v1 users/me', (_i, c) => ({ path: '/v1/users/me', token: tokens[c] })],
    ]
    const total = mix.reduce((s, [w]) => s + w, 0)
    function request(i, c) {
      let r = (i * 7919) % total
      for (const [w, kind, make] of mix) {
        if (r < w) return { kind, ...make(i, c) }
        r -= w
      }
      return { kind: mix[0][1], ...mix[0][2](i, c) }
    }

    async function run(ms, record) {
      const stopAt = Date.now() + ms
      let counter = 0
      const stats = { ok: 0, errors: 0, latencies: [], statuses: {}, failed: {}, byKind: {} }
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, c) => {
          while (Date.now() < stopAt) {
            const req = request(counter++, c)
            const started = performance.now()
            try {
              const res = await fetch(`${origin}${req.path}`, {
                method: req.method ?? 'GET',
                headers: {
                  accept: 'text/html,application/json',
                  ...(req.cookie ? { cookie: req.cookie } : {}),
                  ...(req.token ? { authorization: `Bearer ${req.token}` } : {}),
                  ...(req.body ? { 'content-type': 'application/json' } : {}),
                },
                body: req.body ? JSON.stringify(req.body) : undefined,
                redirect: 'manual',
              })
              await res.arrayBuffer()
              if (record) {
                const ms = performance.now() - started
                stats.latencies.push(ms)
                stats.byKind[req.kind] ??= []
                stats.byKind[req.kind].push(ms)
                stats.statuses[res.status] = (stats.statuses[res.status] ?? 0) + 1
                if (res.status >= 400) {
                  stats.errors++
                  const key = `${res.status} ${req.method ?? 'GET'} ${req.path.replace(/\d+/g, ':id')}`
                  stats.failed[key] = (stats.failed[key] ?? 0) + 1
                } else stats.ok++
              }
            } catch (error) {
              if (record) {
                stats.errors++
                const key = `network ${error?.cause?.code ?? error?.name}`
                stats.failed[key] = (stats.failed[key] ?? 0) + 1
              }
            }
          }
        }),
      )
      return stats
    }

    await run(WARMUP_S * 1000, false)
    const rssAfterWarmup = rssKb(server.pid)
    const started = Date.now()
    const stats = await run(seconds * 1000, true)
    const elapsed = (Date.now() - started) / 1000
    const rssEnd = rssKb(server.pid)
    const sorted = stats.latencies.sort((a, b) => a - b)
    const row = {
      database: 'PostgreSQL',
      seconds: Math.round(elapsed),
      connections: CONCURRENCY,
      requests: sorted.length,
      'req/s': +(sorted.length / elapsed).toFixed(1),
      p50ms: +percentile(sorted, 50).toFixed(1),
      p99ms: +percentile(sorted, 99).toFixed(1),
      errors: stats.errors,
      rssAfterWarmupMB: +(rssAfterWarmup / 1024).toFixed(1),
      rssEndMB: +(rssEnd / 1024).toFixed(1),
      rssGrowthPct: +(((rssEnd - rssAfterWarmup) / rssAfterWarmup) * 100).toFixed(1),
    }
    console.log(
      `\nSoak: mixed load, ${CONCURRENCY} connections, ${row.seconds} s after a ${WARMUP_S} s warm-up (goal: p99 ≤ 300 ms, 0 errors, RSS growth < 10 %)`,
    )
    console.table([row])
    console.log('statuses:', JSON.stringify(stats.statuses))
    // Where the time goes: each kind of request on its own.
    console.table(
      Object.entries(stats.byKind).map(([kind, list]) => {
        list.sort((a, b) => a - b)
        return {
          kind,
          requests: list.length,
          p50ms: +percentile(list, 50).toFixed(1),
          p99ms: +percentile(list, 99).toFixed(1),
        }
      }),
    )
    if (stats.errors > 0) console.log('errors:', JSON.stringify(stats.failed))
    return row
  } finally {
    server.kill('SIGTERM')
    await new Promise((r) => server.once('exit', r))
    await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {})
    await admin.end()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await soak()
}
