import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import Provider, { errors, type Interaction, interactionPolicy, type KoaContext } from 'oidc-provider'
import { addressKey } from '../lib/address-key'
import { deriveSecret } from '../server/auth/secret.server'
import {
  AccountStore,
  DEMO_ACCOUNTS,
  type IdpAccount,
  MIN_PASSWORD_LENGTH,
  SignUpError,
  VERIFY_TOKEN_TTL_MS,
} from './accounts'
import { createAdapterFactory, ProviderStore } from './adapter'
import { loadOrCreateSigningKeys, type PrivateJwks, type PublicJwks, toPublicJwks } from './keys'
import {
  loginPage,
  logoutConfirmPage,
  messagePage,
  signupDonePage,
  signupPage,
  verifyEmailPage,
} from './pages'

/**
 * The embedded OpenID provider (oidc-provider v9), configured to behave like the Auth0 tenant the product uses:
 * Auth0's endpoint paths, the `audience` and `screen_hint` parameters, profile and e-mail claims in the ID token,
 * RS256 JWT access tokens for the API audience, refresh tokens without prompt=consent, PKCE S256 required.
 * It is served on the app's own origin under /idp (issuer `${siteOrigin}/idp`).
 */

export const IDP_CLIENT_ID = 'manabi-web'
export const IDP_MOUNT_PATH = '/idp'

/** Auth0's paths (relative to the issuer). */
export const IDP_ROUTES = {
  authorization: '/authorize',
  token: '/oauth/token',
  jwks: '/.well-known/jwks.json',
  userinfo: '/userinfo',
  revocation: '/oauth/revoke',
  pushed_authorization_request: '/oauth/par',
  end_session: '/oidc/logout',
} as const

/** Auth0's logout endpoint (`returnTo`, `client_id`), a custom handler here. */
export const IDP_LOGOUT_PATH = '/v2/logout'
export const IDP_VERIFY_EMAIL_PATH = '/verify-email'

const OIDC_SCOPES = 'openid profile email offline_access'
/** Scopes an access token for the API carries (Auth0 puts the OIDC scopes there too). */
const RESOURCE_SCOPE = 'openid profile email offline_access'

export interface IdpTtl {
  /** Seconds. */
  accessToken: number
  idToken: number
  refreshToken: number
  session: number
  grant: number
  interaction: number
  authorizationCode: number
}

const DEFAULT_TTL: IdpTtl = {
  accessToken: 60 * 60,
  idToken: 60 * 60,
  refreshToken: 14 * 24 * 60 * 60,
  session: 14 * 24 * 60 * 60,
  grant: 14 * 24 * 60 * 60,
  interaction: 60 * 60,
  authorizationCode: 60,
}

export interface IdentityProviderOptions {
  /** The app's origin: redirect URI, post-logout URI and API audience derive from it. */
  siteOrigin: string
  /** Default `${siteOrigin}/idp`. Its path is where the provider is mounted. */
  issuer?: string
  /** Keys, accounts and the session store live in `${dataDir}/idp`. */
  dataDir: string
  /** The session secret; the client secret and the provider's cookie keys are derived from it. */
  secret: string
  /** IDP_TEST_LOGIN: a login_hint naming a demo account completes the login without any page. */
  testLogin?: boolean
  /** Keep signed-up accounts and provider sessions in files under dataDir (default true). */
  persist?: boolean
  /** Token and session lifetimes in seconds (tests shorten them). */
  ttl?: Partial<IdpTtl>
  /** Use these signing keys instead of `${dataDir}/idp/jwks.json`. */
  signingKeys?: PrivateJwks
  /**
   * Rate limits of password attempts and sign-ups (the app gives the shared database-backed ones; none when
   * unset). `consume` throws an error with `retryAfterS` when the key is over its limit.
   */
  limiter?: IdpLimiter
  /**
   * Sends the confirmation mail of a sign-up (the app queues it as a job). The link goes by mail only: the page
   * never shows it. Without it no mail goes out (tests of other things).
   */
  sendVerificationMail?: (input: { email: string; verifyUrl: string; expiresHours: number }) => Promise<void>
  /** The one-click demo accounts on the login page (and their POST): only while demo content is on (default true). */
  demoAccounts?: boolean
  /** A refused password sign-in, for the audit log (never blocks the answer). */
  onSignInFailed?: (input: {
    email: string
    address: string
    reason: 'password' | 'rate_limited'
  }) => Promise<void>
  /** Where the demo's mails can be read (/test/mailbox), shown on the sign-up page while mails stay local. */
  mailboxUrl?: (email: string) => string | undefined
}

export interface IdpLimiter {
  consume(
    name:
      | 'passwordPerAccount'
      | 'passwordPerAddress'
      | 'signupPerAddress'
      | 'verificationMailPerAccount'
      | 'verificationMailPerAddress',
    key: string,
  ): Promise<void>
  reset(name: 'passwordPerAccount', key: string): Promise<void>
  /** Returns an attempt counted under the per-address limit (a password that was right). */
  giveBack?(name: 'passwordPerAddress', key: string): Promise<void>
}

/** The client's address as scripts/serve.mjs sets it (never what the client claims), else the socket's. */
function clientAddress(req: IncomingMessage): string {
  const real = req.headers['x-real-ip']
  return (typeof real === 'string' && real) || req.socket?.remoteAddress || ''
}

const TOO_MANY_ATTEMPTS = '試行回数が多すぎます。しばらくしてからもう一度お試しください。'

export interface OidcDiscoveryDocument {
  issuer: string
  authorization_endpoint: string
  token_endpoint: string
  jwks_uri: string
  userinfo_endpoint: string
  end_session_endpoint: string
  /** Auth0-style logout (`returnTo`, `client_id`). */
  logout_endpoint: string
  scopes_supported: string[]
  response_types_supported: string[]
  code_challenge_methods_supported: string[]
  id_token_signing_alg_values_supported: string[]
}

export interface IdpClient {
  clientId: string
  clientSecret: string
  redirectUri: string
  postLogoutRedirectUri: string
}

export interface IdentityProvider {
  readonly provider: Provider
  readonly issuer: string
  /** The path the provider is mounted at on its origin ('/idp'). */
  readonly mountPath: string
  /** The API audience (resource indicator) access tokens are issued for: `${siteOrigin}/v1`. */
  readonly audience: string
  readonly client: IdpClient
  readonly accounts: AccountStore
  /** Node request handler for every request whose path starts with the mount path. */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void
  publicJwks(): PublicJwks
  /** The discovery document, built in-process. */
  discovery(): OidcDiscoveryDocument
  /** Writes pending provider state to disk. */
  flush(): void
}

const epochTime = () => Math.floor(Date.now() / 1000)

function trimSlash(value: string) {
  return value.replace(/\/+$/, '')
}

async function readForm(req: IncomingMessage & { body?: unknown }): Promise<URLSearchParams> {
  if (req.body && typeof req.body === 'object') {
    return new URLSearchParams(req.body as Record<string, string>)
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > 64 * 1024) throw new errors.InvalidRequest('request body too large')
    chunks.push(chunk as Buffer)
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

export function createIdentityProvider(options: IdentityProviderOptions): IdentityProvider {
  const siteOrigin = trimSlash(new URL(options.siteOrigin).origin)
  const issuer = trimSlash(options.issuer ?? `${siteOrigin}${IDP_MOUNT_PATH}`)
  const mountPath = trimSlash(new URL(issuer).pathname)
  const audience = `${siteOrigin}/v1`
  const ttl: IdpTtl = { ...DEFAULT_TTL, ...options.ttl }
  const persist = options.persist ?? true

  /**
   * Counts one attempt under each limit; the seconds to wait when one of them is exceeded, else 0, and whether this
   * attempt is the first one refused by a limit in its window (`firstRefusal` of the error; true when not told).
   */
  async function limitsOf(
    checks: [Parameters<IdpLimiter['consume']>[0], string][],
  ): Promise<{ wait: number; first: boolean }> {
    if (!options.limiter) return { wait: 0, first: false }
    let wait = 0
    let first = false
    for (const [name, key] of checks) {
      try {
        await options.limiter.consume(name, key)
      } catch (error) {
        const { retryAfterS, firstRefusal } = error as { retryAfterS?: unknown; firstRefusal?: unknown }
        if (typeof retryAfterS !== 'number') throw error
        wait = Math.max(wait, retryAfterS)
        first ||= firstRefusal !== false
      }
    }
    return { wait, first }
  }
  const overLimit = async (checks: Parameters<typeof limitsOf>[0]) => (await limitsOf(checks)).wait
  const idpDir = join(options.dataDir, 'idp')
  const signingKeys = options.signingKeys ?? loadOrCreateSigningKeys(join(idpDir, 'jwks.json'))
  const accounts = new AccountStore(persist ? join(idpDir, 'accounts.json') : undefined)
  const store = new ProviderStore(persist ? join(idpDir, 'store.json') : undefined)
  const demoButtons = options.demoAccounts ?? true
  const testLogin = options.testLogin ?? false

  const client: IdpClient = {
    clientId: IDP_CLIENT_ID,
    clientSecret: deriveSecret(options.secret, 'idp client secret'),
    redirectUri: `${siteOrigin}/auth/callback`,
    postLogoutRedirectUri: siteOrigin,
  }

  const { Check } = interactionPolicy
  const policy = interactionPolicy.base()
  const loginPrompt = policy.get('login')!
  // screen_hint=signup shows the sign-up page even with a provider session (until this login resolves it).
  loginPrompt.checks.add(
    new Check('screen_hint_signup', 'sign-up was requested', (ctx) =>
      ctx.oidc.params.screen_hint === 'signup' && !ctx.oidc.result?.login
        ? Check.REQUEST_PROMPT
        : Check.NO_NEED_TO_PROMPT,
    ),
  )
  if (testLogin) {
    // A login_hint naming another demo account than the signed-in one switches accounts (tests, e2e).
    loginPrompt.checks.add(
      new Check('login_hint_account', 'another account was requested', (ctx) => {
        const hint = ctx.oidc.params.login_hint
        if (typeof hint !== 'string' || ctx.oidc.result?.login || !ctx.oidc.session.accountId) return false
        const demo = accounts.findDemoByHint(hint)
        return demo !== undefined && demo.sub !== ctx.oidc.session.accountId
      }),
    )
  }

  function toOidcAccount(account: IdpAccount) {
    return {
      accountId: account.sub,
      claims() {
        return {
          sub: account.sub,
          name: account.name,
          nickname: account.nickname,
          ...(account.picture ? { picture: account.picture } : {}),
          ...(account.email ? { email: account.email, email_verified: account.email_verified === true } : {}),
          updated_at: account.updated_at,
        }
      },
    }
  }

  async function grantEverything(grant: {
    addOIDCScope(scope: string): void
    addResourceScope(resource: string, scope: string): void
    save(): Promise<string>
  }) {
    grant.addOIDCScope(OIDC_SCOPES)
    grant.addResourceScope(audience, RESOURCE_SCOPE)
    return grant.save()
  }

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        client_name: 'まなびのたね',
        redirect_uris: [client.redirectUri],
        post_logout_redirect_uris: [client.postLogoutRedirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'RS256',
        // auth_time in every ID token: the site tells a fresh authentication from single sign-on (0037).
        require_auth_time: true,
      },
    ],
    jwks: { keys: signingKeys.keys },
    adapter: createAdapterFactory(store),
    routes: IDP_ROUTES,
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'nickname', 'picture', 'updated_at'],
    },
    scopes: ['openid', 'offline_access'],
    responseTypes: ['code'],
    extraParams: ['audience', 'screen_hint'],
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    cookies: {
      names: { session: 'idp_session', interaction: 'idp_interaction', resume: 'idp_resume' },
      long: { httpOnly: true, sameSite: 'lax', path: mountPath || '/' },
      short: { httpOnly: true, sameSite: 'lax' },
      keys: [deriveSecret(options.secret, 'idp cookie key')],
    },
    ttl: {
      AccessToken: ttl.accessToken,
      IdToken: ttl.idToken,
      RefreshToken: ttl.refreshToken,
      Session: ttl.session,
      Grant: ttl.grant,
      Interaction: ttl.interaction,
      AuthorizationCode: ttl.authorizationCode,
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      // Logout revokes the session's refresh token (RFC 7009), as Auth0's /oauth/revoke does.
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // Auth0's `audience` parameter names the resource; without one, the API is the default.
        async defaultResource(ctx: KoaContext, _client: unknown, oneOf?: string[]) {
          if (oneOf) return oneOf
          const requested = ctx.oidc.params.audience
          return typeof requested === 'string' && requested ? requested : audience
        },
        async useGrantedResource() {
          return true
        },
        async getResourceServerInfo(_ctx: KoaContext, resourceIndicator: string) {
          if (resourceIndicator !== audience)
            throw new errors.InvalidTarget(`unknown audience ${resourceIndicator}`)
          return {
            scope: RESOURCE_SCOPE,
            audience,
            accessTokenTTL: ttl.accessToken,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          }
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx: KoaContext, form: string) {
          ctx.type = 'html'
          ctx.body = logoutConfirmPage({ form, siteUrl: siteOrigin })
        },
        async postLogoutSuccessSource(ctx: KoaContext) {
          ctx.type = 'html'
          ctx.body = messagePage({
            title: 'ログアウトしました',
            message: 'ログアウトが完了しました。',
            linkUrl: siteOrigin,
            linkLabel: 'まなびのたねに戻る',
          })
        },
      },
    },
    // Refresh tokens for the first-party client even though offline_access is dropped without prompt=consent.
    async issueRefreshToken(_ctx: KoaContext, oidcClient: { grantTypeAllowed(type: string): boolean }) {
      return oidcClient.grantTypeAllowed('refresh_token')
    },
    rotateRefreshToken: () => false,
    // First-party client: consent is implied; the grant always covers the OIDC scopes and the API.
    async loadExistingGrant(ctx: KoaContext) {
      const { oidc } = ctx
      const accountId = oidc.session.accountId
      const grantId = oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(oidc.client.clientId)
      let grant = grantId ? await oidc.provider.Grant.find(grantId) : undefined
      if (grant && (grant.accountId !== accountId || grant.clientId !== oidc.client.clientId))
        grant = undefined
      grant ??= new oidc.provider.Grant({ accountId, clientId: oidc.client.clientId })
      await grantEverything(grant)
      return grant
    },
    // Auth0 parity: the API reads the e-mail and its verification from the access token (an Auth0 Action adds
    // the same two claims there), so that registration can trust them without asking the browser.
    async extraTokenClaims(_ctx: KoaContext, token: { kind?: string; accountId?: string }) {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined
      const account = accounts.find(token.accountId)
      if (!account?.email) return undefined
      return { email: account.email, email_verified: account.email_verified === true }
    },
    async findAccount(_ctx: KoaContext, sub: string) {
      const account = accounts.find(sub)
      return account ? toOidcAccount(account) : undefined
    },
    interactions: {
      policy,
      url: (_ctx: KoaContext, interaction: Interaction) => `${mountPath}/interaction/${interaction.uid}`,
    },
    async renderError(ctx: KoaContext, out: { error?: string; error_description?: string }) {
      ctx.type = 'html'
      ctx.body = messagePage({
        title: 'エラーが発生しました',
        message: 'ログインの処理中に問題が発生しました。お手数ですが、もう一度お試しください。',
        detail: [out.error, out.error_description].filter(Boolean).join(': '),
        linkUrl: siteOrigin,
        linkLabel: 'まなびのたねに戻る',
      })
    },
  })

  // Behind a TLS-terminating proxy (an https site origin served by a plain-http Node server), trust
  // X-Forwarded-Proto so that cookies get Secure and generated URLs keep https. On http://localhost: off.
  provider.proxy = siteOrigin.startsWith('https:')

  const pageHeaders = (ctx: KoaContext) => {
    ctx.set('Cache-Control', 'no-store')
    ctx.set(
      'Content-Security-Policy',
      `default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self' ${siteOrigin}; frame-ancestors 'none'; base-uri 'none'`,
    )
    ctx.set('Referrer-Policy', 'no-referrer')
    ctx.set('X-Content-Type-Options', 'nosniff')
  }

  const render = (ctx: KoaContext, html: string, status = 200) => {
    pageHeaders(ctx)
    ctx.status = status
    ctx.type = 'html'
    ctx.body = html
  }

  const redirect = (ctx: KoaContext, location: string) => {
    ctx.set('Cache-Control', 'no-store')
    ctx.status = 303
    ctx.redirect(location)
  }

  const expired = (ctx: KoaContext) =>
    render(
      ctx,
      messagePage({
        title: 'ログインの有効期限が切れました',
        message:
          'ログイン画面を開いてから時間がたったため、手続きを続けられませんでした。もう一度ログインしてください。',
        linkUrl: `${siteOrigin}/auth/login`,
        linkLabel: 'もう一度ログインする',
      }),
      400,
    )

  async function finishLogin(ctx: KoaContext, details: Interaction, accountId: string, amr: string[]) {
    // Another account is signed in at the provider: end that provider session first, so the resumed
    // authorization does not stop on oidc-provider's "different account" logout form.
    if (details.session?.accountId && details.session.accountId !== accountId) {
      if (details.session.uid) await (await provider.Session.findByUid(details.session.uid))?.destroy()
      details.session = undefined
      await details.save(Math.max(1, details.exp - epochTime()))
    }
    const returnTo = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { login: { accountId, amr } },
      { mergeWithLastSubmission: false },
    )
    redirect(ctx, returnTo)
  }

  async function interaction(ctx: KoaContext, uid: string, action: string | undefined) {
    let details: Interaction
    try {
      details = await provider.interactionDetails(ctx.req, ctx.res)
    } catch (error) {
      if ((error as { name?: string }).name === 'SessionNotFound') return expired(ctx)
      throw error
    }
    if (details.uid !== uid) return expired(ctx)

    if (details.prompt.name !== 'login') {
      // Consent (not expected: loadExistingGrant grants everything) is implied for the first-party client.
      const accountId = details.session?.accountId
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId, clientId: String(details.params.client_id) })
      if (!grant) return expired(ctx)
      const grantId = await grantEverything(grant)
      const returnTo = await provider.interactionResult(ctx.req, ctx.res, { consent: { grantId } })
      return redirect(ctx, returnTo)
    }

    const base = `${mountPath}/interaction/${uid}`
    const action_ = (name: string) => `${base}/${name}`
    const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined
    const hintedDemo = hint ? accounts.findDemoByHint(hint) : undefined
    const showLogin = (extra: { error?: string; email?: string } = {}, status = 200) =>
      render(
        ctx,
        loginPage({
          action: action_,
          accounts: demoButtons ? DEMO_ACCOUNTS : [],
          hintedSub: hintedDemo?.sub,
          email: extra.email ?? (hint && !hintedDemo ? hint : undefined),
          error: extra.error,
        }),
        status,
      )
    const showSignup = (extra: { error?: string; email?: string; nickname?: string } = {}, status = 200) =>
      render(
        ctx,
        signupPage({
          action: action_,
          email: extra.email ?? (hint && !hintedDemo ? hint : undefined),
          nickname: extra.nickname,
          error: extra.error,
          minPasswordLength: MIN_PASSWORD_LENGTH,
        }),
        status,
      )

    const get = ctx.method === 'GET' || ctx.method === 'HEAD'
    const post = ctx.method === 'POST'

    if (action === undefined && get) {
      if (testLogin && hintedDemo) return finishLogin(ctx, details, hintedDemo.sub, ['test'])
      return details.params.screen_hint === 'signup' ? showSignup() : showLogin()
    }
    if (action === 'login-page' && get) return showLogin()
    if (action === 'signup-page' && get) return showSignup()

    if (!post) {
      ctx.status = 405
      ctx.set('Allow', action === undefined || action.endsWith('-page') ? 'GET' : 'POST')
      return
    }
    const form = await readForm(ctx.req)

    if (action === 'login') {
      // One-click demo sign-in exists only while the demo content does.
      const demo = demoButtons ? accounts.findDemo(form.get('account') ?? '') : undefined
      if (!demo) return showLogin({ error: 'このアカウントではログインできません。' }, 400)
      return finishLogin(ctx, details, demo.sub, ['demo'])
    }
    if (action === 'password') {
      const email = form.get('email') ?? ''
      const accountKey = email.trim().toLowerCase()
      // Counted before the password is checked: past the limit even the right password is refused.
      const address = addressKey(clientAddress(ctx.req))
      const limited = await limitsOf([
        ['passwordPerAccount', accountKey],
        ['passwordPerAddress', address],
      ])
      if (limited.wait) {
        // Audited once a window: each refusal past the limit costs no password check, and the log is append-only.
        if (limited.first) await signInFailed(email, ctx, 'rate_limited')
        ctx.set('Retry-After', String(limited.wait))
        return showLogin({ error: TOO_MANY_ATTEMPTS, email }, 429)
      }
      const account = await accounts.authenticate(email, form.get('password') ?? '')
      if (!account) {
        await signInFailed(email, ctx, 'password')
        return showLogin({ error: 'メールアドレスまたはパスワードが正しくありません。', email }, 400)
      }
      await options.limiter?.reset('passwordPerAccount', accountKey)
      // The address limit counts guesses: a right password (a school's or a carrier's shared address) is not one.
      await options.limiter?.giveBack?.('passwordPerAddress', address)
      return finishLogin(ctx, details, account.sub, ['pwd'])
    }
    if (action === 'signup') {
      const email = form.get('email') ?? ''
      const nickname = form.get('nickname') ?? ''
      const limited = await overLimit([['signupPerAddress', addressKey(clientAddress(ctx.req))]])
      if (limited) {
        ctx.set('Retry-After', String(limited))
        return showSignup({ error: TOO_MANY_ATTEMPTS, email, nickname }, 429)
      }
      try {
        const { account, verifyToken } = await accounts.signUp({
          email,
          password: form.get('password') ?? '',
          nickname,
        })
        if (details.session?.accountId && details.session.uid) {
          await (await provider.Session.findByUid(details.session.uid))?.destroy()
          details.session = undefined
          await details.save(Math.max(1, details.exp - epochTime()))
        }
        const returnTo = await provider.interactionResult(
          ctx.req,
          ctx.res,
          { login: { accountId: account.sub, amr: ['pwd'] } },
          { mergeWithLastSubmission: false },
        )
        const sent = await mailVerification(account.email ?? email, verifyToken)
        return render(ctx, verificationSentPage(account.email ?? email, sent, returnTo))
      } catch (error) {
        if (error instanceof SignUpError) return showSignup({ error: error.message, email, nickname }, 400)
        throw error
      }
    }
    if (action === 'abort') {
      const returnTo = await provider.interactionResult(
        ctx.req,
        ctx.res,
        { error: 'access_denied', error_description: 'End-User aborted interaction' },
        { mergeWithLastSubmission: false },
      )
      return redirect(ctx, returnTo)
    }
    ctx.status = 404
  }

  /** Auth0's GET /v2/logout?returnTo=&client_id=: ends the provider session and returns to the site. */
  async function logout(ctx: KoaContext) {
    const session = await provider.Session.get(ctx)
    for (const { grantId } of Object.values(session.authorizations ?? {})) {
      if (!grantId) continue
      await Promise.all([
        provider.AccessToken.revokeByGrantId(grantId),
        provider.RefreshToken.revokeByGrantId(grantId),
        provider.AuthorizationCode.revokeByGrantId(grantId),
      ])
      await (await provider.Grant.find(grantId))?.destroy()
    }
    if (!session.new) await session.destroy()
    ctx.cookies.set(provider.cookieName('session'), null, {
      httpOnly: true,
      sameSite: 'lax',
      path: mountPath || '/',
    })

    const returnTo = typeof ctx.query.returnTo === 'string' ? ctx.query.returnTo : undefined
    const clientId = typeof ctx.query.client_id === 'string' ? ctx.query.client_id : undefined
    let target: URL | undefined
    try {
      target = returnTo ? new URL(returnTo) : undefined
    } catch {
      target = undefined
    }
    if (target && target.origin === siteOrigin && (clientId === undefined || clientId === client.clientId)) {
      return redirect(ctx, target.href)
    }
    render(
      ctx,
      messagePage({
        title: 'ログアウトしました',
        message: 'ログアウトが完了しました。',
        linkUrl: siteOrigin,
        linkLabel: 'まなびのたねに戻る',
      }),
    )
  }

  async function signInFailed(email: string, ctx: KoaContext, reason: 'password' | 'rate_limited') {
    try {
      await options.onSignInFailed?.({
        email: email.trim().slice(0, 254),
        address: clientAddress(ctx.req),
        reason,
      })
    } catch (error) {
      console.error(
        '[idp] could not record a failed sign-in:',
        error instanceof Error ? error.message : error,
      )
    }
  }

  const verifyUrlOf = (token: string) =>
    `${issuer}${IDP_VERIFY_EMAIL_PATH}?token=${encodeURIComponent(token)}`

  /** Queues the confirmation mail; false when it could not be queued (the page then offers to send it again). */
  async function mailVerification(email: string, token: string): Promise<boolean> {
    if (!options.sendVerificationMail) return true
    try {
      await options.sendVerificationMail({
        email,
        verifyUrl: verifyUrlOf(token),
        expiresHours: VERIFY_TOKEN_TTL_MS / 3_600_000,
      })
      return true
    } catch (error) {
      console.error(
        '[idp] could not queue the confirmation mail:',
        error instanceof Error ? error.message : error,
      )
      return false
    }
  }

  function verificationSentPage(email: string, sent: boolean, continueUrl: string, resent = false) {
    return signupDonePage({
      email,
      sent,
      resent,
      continueUrl,
      resendAction: `${issuer}${IDP_VERIFY_EMAIL_PATH}/resend`,
      mailboxUrl: options.mailboxUrl?.(email),
    })
  }

  /**
   * POST /verify-email/resend (再送): a new link for an unverified account, limited per account and per address.
   * The answer is the same whether or not the address has an account, so it tells nobody who signed up.
   */
  async function resendVerification(ctx: KoaContext) {
    const form = await readForm(ctx.req)
    const email = (form.get('email') ?? '').slice(0, 254)
    const continueUrl = `${siteOrigin}/`
    const limited = await overLimit([
      ['verificationMailPerAccount', email.trim().toLowerCase()],
      ['verificationMailPerAddress', addressKey(clientAddress(ctx.req))],
    ])
    if (limited) {
      ctx.set('Retry-After', String(limited))
      return render(
        ctx,
        messagePage({
          title: '確認メールを再送できません',
          message: TOO_MANY_ATTEMPTS,
          linkUrl: continueUrl,
          linkLabel: 'まなびのたねに戻る',
        }),
        429,
      )
    }
    const renewed = accounts.renewVerifyToken(email)
    const sent = renewed ? await mailVerification(renewed.account.email ?? email, renewed.verifyToken) : true
    return render(ctx, verificationSentPage(email, sent, continueUrl, true))
  }

  function verifyEmail(ctx: KoaContext) {
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : ''
    const account = accounts.verifyEmail(token)
    // Back to the site through a fresh sign-in, so that the app's session picks up email_verified.
    const continueUrl = `${siteOrigin}/auth/login?returnTo=${encodeURIComponent('/')}`
    render(
      ctx,
      verifyEmailPage({ verified: account !== undefined, email: account?.email, continueUrl }),
      account ? 200 : 400,
    )
  }

  const interactionPath = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/([a-z-]+))?\/?$/

  provider.use(async (ctx, next) => {
    const path = ctx.path
    if (path === IDP_LOGOUT_PATH && (ctx.method === 'GET' || ctx.method === 'HEAD')) return logout(ctx)
    if (path === IDP_VERIFY_EMAIL_PATH && (ctx.method === 'GET' || ctx.method === 'HEAD'))
      return verifyEmail(ctx)
    if (path === `${IDP_VERIFY_EMAIL_PATH}/resend` && ctx.method === 'POST') return resendVerification(ctx)
    const match = interactionPath.exec(path)
    if (match) return interaction(ctx, match[1]!, match[2])
    if (path === '/' && ctx.method === 'GET') return redirect(ctx, `${siteOrigin}/`)
    return next()
  })

  const callback = provider.callback()
  const prefix = mountPath
  const handler = (
    req: IncomingMessage & { originalUrl?: string; baseUrl?: string },
    res: ServerResponse,
  ) => {
    const url = req.url ?? '/'
    const underPrefix = (value: string) =>
      prefix === '' || value === prefix || value.startsWith(`${prefix}/`) || value.startsWith(`${prefix}?`)
    if (prefix && underPrefix(url)) {
      // Mounted by path: strip the prefix for the provider's router, keep the full URL for its URL building.
      req.originalUrl = url
      req.baseUrl = prefix
      const rest = url.slice(prefix.length)
      req.url = rest.startsWith('/') ? rest : `/${rest}`
    } else if (prefix && req.originalUrl && underPrefix(req.originalUrl)) {
      // Already stripped by a connect-style mount (app.use('/idp', handler)).
      req.baseUrl ??= prefix
    } else if (prefix) {
      res.statusCode = 404
      res.end()
      return
    }
    void callback(req, res)
  }

  return {
    provider,
    issuer,
    mountPath,
    audience,
    client,
    accounts,
    handler,
    publicJwks: () => toPublicJwks(signingKeys),
    discovery: () => ({
      issuer,
      authorization_endpoint: `${issuer}${IDP_ROUTES.authorization}`,
      token_endpoint: `${issuer}${IDP_ROUTES.token}`,
      jwks_uri: `${issuer}${IDP_ROUTES.jwks}`,
      userinfo_endpoint: `${issuer}${IDP_ROUTES.userinfo}`,
      end_session_endpoint: `${issuer}${IDP_ROUTES.end_session}`,
      logout_endpoint: `${issuer}${IDP_LOGOUT_PATH}`,
      scopes_supported: OIDC_SCOPES.split(' '),
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['RS256'],
    }),
    flush: () => store.flush(),
  }
}
