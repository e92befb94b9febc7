import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, request as httpRequest, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { importJWK, SignJWT } from 'jose'
import postgres from 'postgres'

// Three app instances on one PostgreSQL behind a round-robin proxy (written here; /idp goes to instance 1, whose
// memory holds the embedded provider's login interactions). What must hold on one instance holds on all.

const ADMIN_URL = process.env.TEST_DATABASE_URL
const BASE = 4100 + Math.floor(Math.random() * 300)
const PROXY_PORT = BASE
const PORTS = [BASE + 1, BASE + 2, BASE + 3]
const ORIGIN = `http://127.0.0.1:${PROXY_PORT}`
const direct = (i: number) => `http://127.0.0.1:${PORTS[i]}`

function startProxy(): Promise<Server> {
  let next = 0
  const server = createServer((req, res) => {
    const idp = (req.url ?? '').startsWith('/idp')
    const port = idp ? PORTS[0]! : PORTS[next++ % PORTS.length]!
    const upstream = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502)
      res.end()
    })
    req.pipe(upstream)
  })
  return new Promise((r) => server.listen(PROXY_PORT, '127.0.0.1', () => r(server)))
}

/** A cookie-jar login through the proxy with the embedded provider's test login; returns the Cookie header. */
async function login(email: string, returnTo = '/mypage'): Promise<string> {
  const jar = new Map<string, string>()
  let url = `${ORIGIN}/auth/login?${new URLSearchParams({ login_hint: email, returnTo })}`
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    })
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0]!
      const i = pair.indexOf('=')
      if (/Max-Age=0/i.test(c)) jar.delete(pair.slice(0, i))
      else jar.set(pair.slice(0, i), pair.slice(i + 1))
    }
    await res.arrayBuffer()
    const location = res.headers.get('location')
    if (!location) break
    url = new URL(location, ORIGIN).href
  }
  const session = jar.get('manabi_session')
  if (!session) throw new Error('no session after login')
  return `manabi_session=${session}`
}

test.describe('three instances on one PostgreSQL @pc-only', () => {
  test.describe.configure({ mode: 'serial', timeout: 240_000 })
  const name = `manabi_cluster_${randomUUID().slice(0, 8)}`
  const dataDir = mkdtempSync(path.join(tmpdir(), 'manabi-cluster-'))
  const apps: ChildProcess[] = []
  let proxy: Server | undefined
  let mint: (sub: string, claims?: Record<string, unknown>) => Promise<string>

  test.beforeAll(async () => {
    if (!ADMIN_URL) throw new Error('TEST_DATABASE_URL must name a PostgreSQL server (.ci/run sets it)')
    const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create database "${name}"`)
    await admin.end()
    const url = new URL(ADMIN_URL)
    url.pathname = `/${name}`
    proxy = await startProxy()
    // All three start at once: migrations and the demo seed run once, under an advisory lock.
    for (const port of PORTS) {
      apps.push(
        spawn(process.execPath, ['scripts/serve.mjs'], {
          env: {
            ...process.env,
            PORT: String(port),
            HOST: '127.0.0.1',
            SITE_ORIGIN: ORIGIN,
            DATA_DIR: dataDir,
            DATABASE_URL: url.toString(),
            IDP_TEST_LOGIN: '1',
            SESSION_SECRET: 'cluster-test-session-secret-0123456789abcdef',
            LOG_LEVEL: 'silent',
          },
          stdio: 'ignore',
        }),
      )
    }
    for (let i = 0; i < PORTS.length; i++) {
      await expect
        .poll(
          () =>
            fetch(`${direct(i)}/readyz`).then(
              (r) => r.status,
              () => 0,
            ),
          { timeout: 150_000 },
        )
        .toBe(200)
    }
    // Access tokens as the embedded provider issues them (its keys are in the shared DATA_DIR).
    await fetch(`${ORIGIN}/idp/.well-known/openid-configuration`)
    const jwks = JSON.parse(readFileSync(path.join(dataDir, 'idp', 'jwks.json'), 'utf8')) as {
      keys: ({ kid: string } & Record<string, unknown>)[]
    }
    const jwk = jwks.keys[0]!
    const key = await importJWK(jwk, 'RS256')
    mint = (sub, claims = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'at+jwt' })
        .setIssuer(`${ORIGIN}/idp`)
        .setAudience(`${ORIGIN}/v1`)
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(key)
  })

  test.afterAll(async () => {
    for (const app of apps) app.kill('SIGKILL')
    await new Promise((r) => (proxy ? proxy.close(r) : r(undefined)))
    if (ADMIN_URL) {
      const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} })
      await admin.unsafe(`drop database if exists "${name}" with (force)`)
      await admin.end()
    }
    rmSync(dataDir, { recursive: true, force: true })
  })

  const api = async (method: string, p: string, token?: string, body?: unknown, base = ORIGIN) => {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, headers: res.headers, body: await res.json().catch(() => undefined) }
  }

  test('the booking race across instances: exactly the free seats are sold', async () => {
    const teacher = await mint('demo|teacher')
    const mine = await api('GET', '/v1/teachers/my_class_works?is_published=true', teacher)
    const classId = mine.body[0].id as number
    const start = new Date(Date.now() + 20 * 86_400_000)
    const schedule = await api('POST', `/v1/teachers/class_works/${classId}/schedules`, teacher, {
      started_at: start.toISOString(),
      ended_at: new Date(start.getTime() + 3_600_000).toISOString(),
      capacity: 5,
    })
    expect(schedule.status).toBe(201)
    const members = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const token = await mint(`cluster|m${i}`, {
          email: `cluster${i}@manabi.example`,
          email_verified: true,
        })
        const reg = await api('POST', '/v1/users', token, {
          nickname: `会員${i}`,
          name: `会員 ${i}`,
          name_kana: 'カイイン',
          role: 'parent',
          profession_id: 1,
          agreed_to_terms: true,
        })
        expect(reg.status).toBe(201)
        return token
      }),
    )
    const results = await Promise.all(
      members.map((token) => api('POST', '/v1/purchases', token, { schedule_id: schedule.body.id })),
    )
    const statuses = results.map((r) => (r.status === 409 ? `409 ${r.body.code}` : String(r.status)))
    expect(statuses.filter((s) => s === '201')).toHaveLength(5)
    expect(statuses.filter((s) => s === '409 full')).toHaveLength(25)
    const view = await api('GET', `/v1/teachers/class_works/${classId}`, teacher)
    const row = view.body.schedules.find((s: { id: number }) => s.id === schedule.body.id)
    expect(row.purchased_count).toBe(5)
  })

  test('a session made through one instance works on all; logout on one ends it on all', async () => {
    const cookie = await login('parent@manabi.example')
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${direct(i)}/profile`, { headers: { cookie }, redirect: 'manual' })
      expect(res.status, `instance ${i + 1}`).toBe(200)
      expect(await res.text(), `instance ${i + 1}`).toContain('parent@manabi.example')
    }
    const out = await fetch(`${direct(1)}/auth/logout`, {
      method: 'POST',
      headers: { cookie, origin: direct(1), 'sec-fetch-site': 'same-origin' },
      redirect: 'manual',
    })
    expect(out.status).toBe(302)
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${direct(i)}/profile`, { headers: { cookie }, redirect: 'manual' })
      expect(await res.text(), `instance ${i + 1}`).not.toContain('parent@manabi.example')
    }
  })

  test('a write on one instance changes search results on another within 1 s', async () => {
    const teacher = await mint('demo|teacher')
    const mine = await api('GET', '/v1/teachers/my_class_works?is_published=true', teacher)
    const classId = mine.body[0].id as number
    const word = `クラスタ${Date.now() % 100_000}`
    const page = `${direct(2)}/class_search?q=${encodeURIComponent(word)}`
    // Instance 3 answers (and caches) the search before the write.
    expect(await (await fetch(page)).text()).not.toContain(`${word}教室`)
    const edit = await api(
      'PATCH',
      `/v1/teachers/class_works/${classId}`,
      teacher,
      { title: `${word}教室` },
      direct(0),
    )
    expect(edit.status).toBe(200)
    const changedAt = Date.now()
    await expect
      .poll(async () => (await (await fetch(page)).text()).includes(`${word}教室`), { timeout: 5_000 })
      .toBe(true)
    expect(Date.now() - changedAt).toBeLessThan(1_000 + 500)
  })

  test('rate limits count across instances', async () => {
    const parent = await mint('demo|parent')
    const teacherUser = await api('GET', '/v1/users/me', await mint('demo|teacher'))
    const room = await api('POST', '/v1/rooms', parent, { partner_id: teacherUser.body.id })
    expect(room.status).toBeLessThan(300)
    const statuses: number[] = []
    for (let i = 0; i < 15; i++) {
      const r = await api('POST', `/v1/rooms/${room.body.id}/messages`, parent, { body: `こんにちは ${i}` })
      statuses.push(r.status)
      if (r.status === 429) expect(r.headers.get('retry-after')).toBeTruthy()
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(10)
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429, 429])
  })
})
