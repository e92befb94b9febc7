import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AccountStore, DEMO_ACCOUNTS } from './accounts'
import { ProviderStore } from './adapter'
import { loadOrCreateSigningKeys, toPublicJwks } from './keys'
import { escapeHtml } from './pages'
import { createIdentityProvider } from './provider'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'manabi-idp-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('demo accounts', () => {
  it('are exactly the accounts of PRODUCT.md', () => {
    expect(DEMO_ACCOUNTS.map((a) => [a.sub, a.email ?? null, a.email_verified ?? null])).toEqual([
      ['demo|parent', 'parent@manabi.example', true],
      ['demo|teacher', 'teacher@manabi.example', true],
      ['demo|org-owner', 'owner@manabi.example', true],
      ['demo|operator', 'operator@manabi.example', true],
      ['demo|new', 'new@manabi.example', true],
      ['demo|unverified', 'unverified@manabi.example', false],
      ['line|U0000000000demo', null, null],
    ])
    for (const account of DEMO_ACCOUNTS) expect(account.name).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/)
  })
})

describe('AccountStore', () => {
  it('signs up an unverified account, verifies it once, persists it and checks passwords', async () => {
    const file = join(tempDir(), 'idp', 'accounts.json')
    const store = new AccountStore(file)
    const { account, verifyToken } = await store.signUp({
      email: ' New.User@Manabi.Example ',
      password: 'password1',
    })
    expect(account.sub).toMatch(/^auth0\|[0-9a-f]{24}$/)
    expect(account.email).toBe('new.user@manabi.example')
    expect(account.email_verified).toBe(false)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readFileSync(file, 'utf8')).not.toContain('password1')

    const reloaded = new AccountStore(file)
    expect(reloaded.find(account.sub)?.email_verified).toBe(false)
    expect(reloaded.verifyEmail(verifyToken)?.email_verified).toBe(true)
    expect(reloaded.verifyEmail(verifyToken)).toBeUndefined()
    expect(new AccountStore(file).find(account.sub)?.email_verified).toBe(true)

    expect((await reloaded.authenticate('NEW.USER@manabi.example', 'password1'))?.sub).toBe(account.sub)
    expect(await reloaded.authenticate('new.user@manabi.example', 'wrong-password')).toBeUndefined()
  })

  it('refuses taken addresses, bad addresses and short passwords in Japanese', async () => {
    const store = new AccountStore()
    await expect(store.signUp({ email: 'parent@manabi.example', password: 'password1' })).rejects.toThrow(
      'すでに登録されています',
    )
    await expect(store.signUp({ email: 'not-an-address', password: 'password1' })).rejects.toThrow('形式')
    await expect(store.signUp({ email: 'a@manabi.example', password: 'short' })).rejects.toThrow('8文字以上')
  })

  it('finds demo accounts by e-mail or sub hint', () => {
    const store = new AccountStore()
    expect(store.findDemoByHint('Teacher@manabi.example')?.sub).toBe('demo|teacher')
    expect(store.findDemoByHint('line|U0000000000demo')?.sub).toBe('line|U0000000000demo')
    expect(store.findDemoByHint('someone@manabi.example')).toBeUndefined()
  })

  it('two sign-ups with one address at once make one account', async () => {
    const store = new AccountStore()
    const results = await Promise.allSettled([
      store.signUp({ email: 'twice@manabi.example', password: 'password1' }),
      store.signUp({ email: 'twice@manabi.example', password: 'password1' }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect(String((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason)).toContain(
      'すでに登録されています',
    )
  })

  it('frees an address signed up for and never confirmed once its link has expired, not before', async () => {
    const store = new AccountStore()
    const now = Date.now()
    const first = await store.signUp({ email: 'mistyped@manabi.example', password: 'password1' }, now)
    await expect(
      store.signUp({ email: 'mistyped@manabi.example', password: 'password2' }, now + 60 * 60 * 1000),
    ).rejects.toThrow('すでに登録されています')
    const later = now + 25 * 60 * 60 * 1000
    const second = await store.signUp({ email: 'mistyped@manabi.example', password: 'password2' }, later)
    expect(second.account.sub).not.toBe(first.account.sub)
    expect(store.find(first.account.sub)).toBeUndefined()
    expect(store.verifyEmail(second.verifyToken, later)?.sub).toBe(second.account.sub)
    expect((await store.authenticate('mistyped@manabi.example', 'password2'))?.sub).toBe(second.account.sub)
    // Confirmed, it stays the owner's for good.
    await expect(
      store.signUp({ email: 'mistyped@manabi.example', password: 'password3' }, later + 30 * 60 * 60 * 1000),
    ).rejects.toThrow('すでに登録されています')
  })

  it('a resend (再送, no sign-in needed) does not hold the address past the day after its sign-up', async () => {
    const store = new AccountStore()
    const now = Date.now()
    const HOUR = 60 * 60 * 1000
    await store.signUp({ email: 'squatted@manabi.example', password: 'password1' }, now)
    // A stranger's resend an hour before the day is over: its link works until then, not a day more.
    const resent = store.renewVerifyToken('squatted@manabi.example', now + 23 * HOUR)!
    expect(store.verifyEmail(resent.verifyToken, now + 25 * HOUR)).toBeUndefined()
    expect(store.renewVerifyToken('squatted@manabi.example', now + 25 * HOUR)).toBeUndefined()
    // The owner signs up with their address.
    const owner = await store.signUp(
      { email: 'squatted@manabi.example', password: 'password2' },
      now + 25 * HOUR,
    )
    expect(store.verifyEmail(owner.verifyToken, now + 26 * HOUR)?.sub).toBe(owner.account.sub)
  })

  it('expires confirmation links after a day', async () => {
    const store = new AccountStore()
    const now = Date.now()
    const { verifyToken } = await store.signUp({ email: 'late@manabi.example', password: 'password1' }, now)
    expect(store.verifyEmail(verifyToken, now + 25 * 60 * 60 * 1000)).toBeUndefined()
  })
})

describe('ProviderStore', () => {
  it('drops expired entries nobody reads again (abandoned sign-in screens), so memory does not grow for good', () => {
    vi.useFakeTimers({ now: new Date('2026-12-03T00:00:00Z') })
    try {
      const store = new ProviderStore()
      for (let i = 0; i < 100; i++) store.set(`Interaction:${i}`, { uid: String(i) }, 60)
      store.set('Session:kept', { uid: 'kept' })
      vi.advanceTimersByTime(61_000)
      store.set('Interaction:new', { uid: 'new' }, 60)
      expect(store.findKeys(() => true).sort()).toEqual(['Interaction:new', 'Session:kept'])
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('signing keys', () => {
  it('are generated once into a private file and reused', () => {
    const file = join(tempDir(), 'idp', 'jwks.json')
    const first = loadOrCreateSigningKeys(file)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(first.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' })
    const reread = JSON.parse(readFileSync(file, 'utf8'))
    expect(reread.keys[0].kid).toBe(first.keys[0]!.kid)
    const pub = toPublicJwks(first)
    expect(Object.keys(pub.keys[0]!).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use'])
  })
})

describe('pages', () => {
  it('escape HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
  })
})

describe('mounting', () => {
  it('serves under /idp with the full URL or behind a connect-style mount that stripped the prefix', async () => {
    const idp = createIdentityProvider({
      siteOrigin: 'http://127.0.0.1:1',
      dataDir: tempDir(),
      secret: 'unit-test-session-secret-0123456789abcdef',
      persist: false,
    })
    const server = createServer((req, res) => {
      if (req.url?.startsWith('/mounted')) {
        // What connect does for app.use('/idp', handler): strip the prefix, keep originalUrl.
        const url = req.url.replace('/mounted', '') || '/'
        Object.assign(req, { originalUrl: `/idp${url}`, url })
      }
      idp.handler(req, res)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const full = await fetch(`${base}/idp/.well-known/openid-configuration`)
      expect(full.status).toBe(200)
      expect(((await full.json()) as { issuer: string }).issuer).toBe('http://127.0.0.1:1/idp')
      const stripped = await fetch(`${base}/mounted/.well-known/jwks.json`)
      expect(stripped.status).toBe(200)
      expect(await stripped.json()).toEqual(idp.publicJwks())
      const discovery = (await (await fetch(`${base}/mounted/.well-known/openid-configuration`)).json()) as {
        token_endpoint: string
      }
      expect(discovery.token_endpoint).toBe(`${base}/idp/oauth/token`)
      expect((await fetch(`${base}/elsewhere`)).status).toBe(404)
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
