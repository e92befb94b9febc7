import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createIdentityProvider, type IdentityProvider, type IdpTtl } from '../../app/idp/provider'
import { type AuthFlow, type AuthFlowOptions, createAuthFlow } from '../../app/server/auth/flow.server'
import {
  createOidcClient,
  type OidcClient,
  oidcSettingsForIdentityProvider,
} from '../../app/server/auth/oidc.server'
import { createSessionStore, type SessionStore } from '../../app/server/auth/session.server'
import { openTestDatabase, type TestDatabase } from './support/test-db'

/**
 * A browserless test bed for the sign-in flow: the embedded provider on an ephemeral loopback port (served by
 * the same mount-aware handler the app uses under /idp), the app's auth handlers called in-process, and a small
 * cookie-jar "browser" that follows redirects between them.
 */

export interface AuthHarness {
  origin: string
  /** Where the sessions live. */
  database: TestDatabase
  idp: IdentityProvider
  flow: AuthFlow
  store: SessionStore
  client: OidcClient
  newBrowser(): TestBrowser
  /** Confirmation mails the provider asked to send (newest last). */
  verificationMails: { email: string; verifyUrl: string; expiresHours: number }[]
  /** Audit events the flow and the provider reported (sign-in, logout, failed sign-in). */
  securityEvents: { action: string; sub?: string; email?: string; reason?: string }[]
  close(): Promise<void>
}

export async function startAuthHarness(
  options: {
    testLogin?: boolean
    ttl?: Partial<IdpTtl>
    quiet?: boolean
    accountOf?: AuthFlowOptions['accountOf']
  } = {},
): Promise<AuthHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'manabi-auth-'))
  let handler: Parameters<typeof createServer>[1] = (_req, res) => {
    res.statusCode = 503
    res.end()
  }
  const server: Server = createServer((req, res) => handler?.(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const secret = 'integration-test-session-secret-0123456789abcdef'
  const verificationMails: AuthHarness['verificationMails'] = []
  const securityEvents: AuthHarness['securityEvents'] = []
  const idp = createIdentityProvider({
    siteOrigin: origin,
    dataDir,
    secret,
    testLogin: options.testLogin ?? true,
    persist: false,
    ttl: options.ttl,
    sendVerificationMail: async (mail) => void verificationMails.push(mail),
    onSignInFailed: async (e) => void securityEvents.push({ action: 'sign_in_failed', ...e }),
  })
  handler = (req, res) => {
    if (req.url?.startsWith('/idp')) return idp.handler(req, res)
    res.statusCode = 404
    res.end()
  }
  const client = createOidcClient(oidcSettingsForIdentityProvider(idp))
  const database = await openTestDatabase()
  const store = createSessionStore({
    secret,
    isProduction: false,
    getDb: async () => database.db,
    issuer: client.settings.issuer,
  })
  const flow = createAuthFlow({
    siteOrigin: origin,
    store,
    client: async () => client,
    quiet: options.quiet ?? true,
    onSecurityEvent: async (e) => void securityEvents.push(e),
    accountOf: options.accountOf,
  })

  return {
    origin,
    verificationMails,
    securityEvents,
    database,
    idp,
    flow,
    store,
    client,
    newBrowser: () => new TestBrowser(origin, flow),
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await database.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

interface StoredCookie {
  value: string
  path: string
}

export interface Hop {
  method: string
  url: string
  status: number
  location?: string
}

export interface NavigationResult {
  /** The last URL reached (an app page, an IdP page, or a URL the browser stopped at). */
  url: URL
  status: number
  body: string
  hops: Hop[]
}

/** A cookie-jar client: /auth/* goes to the in-process handlers, /idp/* over HTTP to the provider. */
export class TestBrowser {
  readonly cookies = new Map<string, StoredCookie>()
  /** Emulates a server that keeps only the last Set-Cookie of an app response (Node 20 + srvx, unpatched). */
  lastSetCookieOnly = false

  constructor(
    readonly origin: string,
    readonly flow: AuthFlow,
  ) {}

  cookieHeader(url: URL): string {
    return [...this.cookies]
      .filter(
        ([, c]) =>
          url.pathname === c.path ||
          url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) ||
          c.path === '/',
      )
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ')
  }

  applySetCookie(headers: string[], url: URL) {
    for (const header of headers) {
      const [pair, ...attributes] = header.split(';').map((s) => s.trim())
      const index = pair!.indexOf('=')
      const name = pair!.slice(0, index)
      const value = pair!.slice(index + 1)
      let path = url.pathname.replace(/\/[^/]*$/, '') || '/'
      let remove = value === ''
      for (const attribute of attributes) {
        const [key, val] = attribute.split('=')
        const lower = key!.toLowerCase()
        if (lower === 'path' && val) path = val
        if (lower === 'max-age' && Number(val) <= 0) remove = true
        if (lower === 'expires' && val && Date.parse(val) < Date.now()) remove = true
      }
      if (remove) this.cookies.delete(name)
      else this.cookies.set(name, { value, path })
    }
  }

  request(url: string | URL, init: { method?: string; body?: string } = {}): Request {
    const target = new URL(url, this.origin)
    const headers = new Headers({ cookie: this.cookieHeader(target) })
    if (init.body !== undefined) headers.set('content-type', 'application/x-www-form-urlencoded')
    return new Request(target, { method: init.method ?? 'GET', headers, body: init.body })
  }

  async send(url: string | URL, init: { method?: string; body?: string } = {}): Promise<Response> {
    const target = new URL(url, this.origin)
    let response: Response
    if (target.origin === this.origin && target.pathname.startsWith('/auth/')) {
      const request = this.request(target, init)
      if (target.pathname === '/auth/login') response = await this.flow.handleLogin(request)
      else if (target.pathname === '/auth/callback') response = await this.flow.handleCallback(request)
      else if (target.pathname === '/auth/logout')
        response =
          request.method === 'POST' ? await this.flow.handleLogout(request) : this.flow.logoutConfirmation()
      else throw new Error(`no handler for ${target.pathname}`)
    } else {
      const headers: Record<string, string> = { cookie: this.cookieHeader(target) }
      if (init.body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded'
      response = await fetch(target, {
        method: init.method ?? 'GET',
        headers,
        body: init.body,
        redirect: 'manual',
      })
    }
    const setCookie = response.headers.getSetCookie()
    const isApp = target.origin === this.origin && target.pathname.startsWith('/auth/')
    this.applySetCookie(this.lastSetCookieOnly && isApp ? setCookie.slice(-1) : setCookie, target)
    return response
  }

  /**
   * Follows redirects from `url` until a page that is not a redirect, or a URL for which `stopAt` is true
   * (checked before requesting it). App pages (not /auth, not /idp) are never requested: the browser stops there.
   */
  async navigate(
    url: string | URL,
    init: { method?: string; body?: string; stopAt?: (url: URL) => boolean } = {},
  ): Promise<NavigationResult> {
    const hops: Hop[] = []
    let target = new URL(url, this.origin)
    let method = init.method ?? 'GET'
    let body = init.body
    for (let i = 0; i < 20; i++) {
      const isApp =
        target.origin === this.origin &&
        !target.pathname.startsWith('/auth/') &&
        !target.pathname.startsWith('/idp')
      if (isApp || (i > 0 && init.stopAt?.(target))) {
        return { url: target, status: 0, body: '', hops }
      }
      const response = await this.send(target, { method, body })
      const location = response.headers.get('location') ?? undefined
      hops.push({ method, url: target.href, status: response.status, location })
      if (response.status >= 300 && response.status < 400 && location) {
        target = new URL(location, target)
        method = 'GET'
        body = undefined
        continue
      }
      return { url: target, status: response.status, body: await response.text(), hops }
    }
    throw new Error('too many redirects')
  }

  sessionRequest(path = '/'): Request {
    return this.request(path)
  }
}

/** The action of the demo-account form for `sub` on a provider sign-in page. */
export function demoButtonAction(html: string, sub: string): string {
  const forms = html.split('<form')
  for (const form of forms) {
    if (form.includes(`value="${sub.replaceAll('|', '|')}"`)) {
      const match = /action="([^"]+)"/.exec(form)
      if (match) return match[1]!.replaceAll('&amp;', '&')
    }
  }
  throw new Error(`no demo button for ${sub}`)
}

/** The first form action on a page containing `marker` (e.g. 'name="email"'). */
export function formAction(html: string, marker: string): string {
  for (const form of html.split('<form')) {
    if (form.includes(marker)) {
      const match = /action="([^"]+)"/.exec(form)
      if (match) return match[1]!.replaceAll('&amp;', '&')
    }
  }
  throw new Error(`no form containing ${marker}`)
}

export function hrefOf(html: string, text: string): string {
  const pattern = new RegExp(`href="([^"]+)"[^>]*>${text}`)
  const match = pattern.exec(html)
  if (!match) throw new Error(`no link "${text}"`)
  return match[1]!.replaceAll('&amp;', '&')
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
