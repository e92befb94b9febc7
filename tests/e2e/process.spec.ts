import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { freePort } from './helpers'

// The production server as an operator runs it: two starts on one DATA_DIR, kill -9, SIGTERM with a request in
// flight, and every bad variable. Each start is a real `node scripts/serve.mjs` on its own port.

interface Started {
  child: ChildProcess
  port: number
  stderr: () => string
  exited: Promise<number | null>
}

async function start(env: Record<string, string>, given?: number): Promise<Started> {
  const port = given ?? (await freePort())
  let err = ''
  const child = spawn(process.execPath, ['scripts/serve.mjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      SITE_ORIGIN: `http://localhost:${port}`,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  child.stderr?.on('data', (chunk) => {
    err += String(chunk)
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, port, stderr: () => err, exited }
}

/** stderr without the oidc-provider's warning about Node 20 (printed on import, before anything of ours). */
const ourLines = (stderr: string) =>
  stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('oidc-provider WARNING'))

async function waitReady(port: number, ms = 90_000) {
  const until = Date.now() + ms
  while (Date.now() < until) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/readyz`)
      if (r.ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`server on ${port} did not become ready`)
}

async function exitWithin<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no exit within ${ms} ms`)), ms)),
  ])
}

test.describe('the server process @pc-only', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 })
  const dataDir = mkdtempSync(path.join(tmpdir(), 'manabi-process-'))
  const running: Started[] = []
  test.afterAll(() => {
    for (const s of running) s.child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })

  test('a second start on the same DATA_DIR refuses in seconds; the first keeps serving', async () => {
    const first = await start({ DATA_DIR: dataDir })
    running.push(first)
    await waitReady(first.port)

    const second = await start({ DATA_DIR: dataDir })
    const began = Date.now()
    expect(await exitWithin(second.exited, 15_000)).toBe(1)
    expect(Date.now() - began).toBeLessThan(15_000)
    const lines = ourLines(second.stderr())
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`in use by another running app (pid ${first.child.pid}`)
    expect(lines[0]).toContain('stop that process first')
    // It never listened, and the first one still answers with its data.
    await expect(fetch(`http://127.0.0.1:${second.port}/healthz`)).rejects.toThrow()
    expect((await fetch(`http://127.0.0.1:${first.port}/readyz`)).status).toBe(200)
    expect((await fetch(`http://127.0.0.1:${first.port}/class_search/detail/1`)).status).toBe(200)

    // kill -9 leaves a stale lock: the next start takes it over, and the data is intact.
    first.child.kill('SIGKILL')
    await first.exited
    expect(existsSync(path.join(dataDir, 'app.lock'))).toBe(true)
    const third = await start({ DATA_DIR: dataDir })
    running.push(third)
    await waitReady(third.port)
    const page = await fetch(`http://127.0.0.1:${third.port}/class_search/detail/1`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<h1')
  })

  test('SIGTERM lets a request in flight finish, then closes the database and exits 0', async () => {
    const server = running[running.length - 1]!
    // A request whose body is still arriving when SIGTERM comes.
    const body = JSON.stringify({ q: '英語' })
    const answer = new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/v1/class_works/search',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.on('error', reject)
      req.write(body.slice(0, 3))
      setTimeout(() => {
        server.child.kill('SIGTERM')
        setTimeout(() => req.end(body.slice(3)), 300)
      }, 200)
    })
    expect(await answer).toBe(200)
    expect(await exitWithin(server.exited, 15_000)).toBe(0)
    expect(existsSync(path.join(dataDir, 'app.lock'))).toBe(false)
  })

  test('each bad variable stops the start with one line naming it (exit 1)', async () => {
    const file = path.join(dataDir, 'not-a-folder')
    writeFileSync(file, 'x')
    const busy = createServer(() => {})
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r))
    const busyPort = (busy.address() as AddressInfo).port
    try {
      const cases: [Record<string, string>, RegExp, number?][] = [
        [
          { SITE_ORIGIN: 'example.com' },
          /^Configuration error: SITE_ORIGIN="example\.com" must be an origin/,
        ],
        [
          { DATABASE_URL: 'not-a-url' },
          /^Configuration error: DATABASE_URL="not-a-url" must be a PostgreSQL URL/,
        ],
        [{ DATA_DIR: file }, /^Configuration error: DATA_DIR=".*not-a-folder" is a file, not a folder/],
        [{ PORT: 'abc' }, /^Configuration error: PORT="abc"/],
        [
          { SESSION_SECRET: 'short' },
          /^Configuration error: SESSION_SECRET=\(hidden\) SESSION_SECRET must be at least 32/,
        ],
        [
          {},
          new RegExp(
            `^PORT ${busyPort} is already in use: stop the other process or set PORT to a free port$`,
          ),
          busyPort,
        ],
      ]
      for (const [env, message, port] of cases) {
        const s = await start({ DATA_DIR: dataDir, ...env }, port)
        expect(await exitWithin(s.exited, 60_000), JSON.stringify(env)).toBe(1)
        const lines = ourLines(s.stderr())
        expect(lines, JSON.stringify(env)).toHaveLength(1)
        expect(lines[0]).toMatch(message)
      }
    } finally {
      busy.close()
    }
  })
})
