import '@tanstack/react-start/server-only'
import { OpenAPIHono } from '@hono/zod-openapi'
import { bodyLimit } from 'hono/body-limit'
import { HTTPException } from 'hono/http-exception'
import { timeout } from 'hono/timeout'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { z } from 'zod'
import { DATABASE_RETRY_AFTER_S, type Db, getDb as defaultGetDb, isDatabaseUnavailable } from '../db/client'
import { type EventBus, getEventBus } from '../db/events'
import { errorLine, withoutQueryParams } from '../db/log-safe'
import { consume, giveBack, isLimited, limitKey, RateLimitedError } from '../db/rate-limit'
import { LIMITS, type Limit, type LimitName } from '../lib/limits'
import { unsubscribeSecretOf } from '../mail/unsubscribe.server'
import { type PaymentProvider, PaymentProviderError } from '../payments/provider.server'
import {
  configuredPaymentProvider,
  currentReceiptIssuer,
  getPaymentProvider,
} from '../payments/runtime.server'
import { deriveSecret, resolveSessionSecret } from '../server/auth/secret.server'
import { getConfig } from '../server/config'
import { type AuthConfigSource, bearerToken, canonicalToken, defaultAuthSource } from './auth'
import { CARD_CACHE_TTL_MS, createCardCache } from './card-cache'
import { DOCS_CSP, renderDocsPage } from './docs'
import { ApiError, RequestTimedOutError, sqlState } from './errors'
import { idempotency } from './idempotency'
import { isInProcess } from './in-process'
import type { ApiApp, ApiEnv, RouteDeps } from './openapi'
import { registerAdminRoutes } from './routes/admin'
import { registerCalendarRoutes } from './routes/calendar'
import { registerClassManagementRoutes } from './routes/class-management'
import { registerClassRequestRoutes } from './routes/class-requests'
import { registerClassWorkRoutes } from './routes/class-works'
import { registerFollowRoutes } from './routes/follows'
import { registerFuriganaRoutes } from './routes/furigana'
import { registerLearnerRoutes } from './routes/learners'
import { registerMagazineRoutes } from './routes/magazine'
import { registerMasterRoutes } from './routes/master'
import { registerMessageRoutes } from './routes/messages'
import { registerNoticeRoutes } from './routes/notices'
import { registerNotificationSettingRoutes } from './routes/notification-settings'
import { registerOrgManagementRoutes } from './routes/org-management'
import { registerOrganizationRoutes } from './routes/organizations'
import { registerPaymentRoutes } from './routes/payments'
import { registerPurchaseRoutes } from './routes/purchases'
import { registerReviewRoutes } from './routes/reviews'
import { registerSalesRoutes } from './routes/sales'
import { registerSitemapRoutes } from './routes/sitemap'
import { registerTeacherRoutes } from './routes/teachers'
import { registerTrustRoutes } from './routes/trust'
import { registerUserRoutes } from './routes/users'
import { registerWaitlistRoutes } from './routes/waitlist'
import { searchInvalidation } from './search-invalidation'
import { paymentUnavailable, type ReceiptIssuer } from './services/payments'

// Field errors in /v1 400 bodies speak Japanese like the rest of the answer (a schema's own message still wins):
// zod's Japanese locale, for every schema this process validates.
z.config(z.locales.ja())

export interface ApiDeps {
  getDb?: () => Promise<Db>
  auth?: AuthConfigSource
  /** The clock (tests pin it). */
  now?: () => Date
  /** Where paid reservations are paid (default: Stripe when configured, else the embedded test provider). */
  payment?: PaymentProvider
  /** The key that encrypts teachers' bank accounts (default: derived from SESSION_SECRET). */
  dataSecret?: () => string
  /** Who issues receipts (default: the platform's name and INVOICE_REGISTRATION_NUMBER). */
  receiptIssuer?: () => ReceiptIssuer
  /** COMMISSION_RATE (default: the app's configuration, 0.2). */
  commissionRate?: () => number
  /** Rate limits (app/lib/limits.ts): other numbers for some, or false for none (tests of other things). */
  limits?: Partial<Record<LimitName, Limit>> | false
  /** The bus that empties every instance's search cache after a write (default: the app's); null: none. */
  events?: (() => Promise<EventBus>) | null
  /**
   * How long search cards are kept between searches (card-cache.ts), on `events`: the app's API keeps them
   * CARD_CACHE_TTL_MS; default 0, none (tests of other things write to the database between searches).
   */
  cardCacheTtlMs?: number
  /** Signs the unsubscribe links of mails (default: derived from SESSION_SECRET). */
  unsubscribeSecret?: () => string
}

const MAX_BODY_BYTES = 64 * 1024
/** Longest a /v1 request may take before it is answered 503 (pages must answer within 5 s). */
export const API_REQUEST_TIMEOUT_MS = 5_000

/** Postgres error classes that can only come from bad input reaching SQL; never a 500. */
function databaseInputError(err: unknown): ApiError | undefined {
  const code = sqlState(err)
  if (!code) return undefined
  if (code === '23505') return new ApiError(409, 'conflict', 'すでに登録されています')
  if (code === '23503') return new ApiError(400, 'invalid_request', '存在しないデータが指定されています')
  if (code === '23514') return new ApiError(409, 'conflict', '条件を満たさないため処理できませんでした')
  // A required value missing (a body that skipped its schema): the request, not the server, is wrong.
  if (code === '23502') return new ApiError(400, 'invalid_request', '入力内容に誤りがあります')
  if (code.startsWith('22')) return new ApiError(400, 'invalid_request', '入力内容に誤りがあります')
  return undefined
}

/** The key of the unsubscribe links, derived from the session secret (the same on every instance). */
const defaultUnsubscribeSecret = () => unsubscribeSecretOf(getConfig())

/** The key of teachers' bank accounts, derived from the session secret (the same on every instance). */
const defaultDataSecret = () => deriveSecret(resolveSessionSecret(getConfig()), 'bank accounts v1')

/** COMMISSION_RATE from the app's configuration, read when a reservation is made. */
const defaultCommissionRate = () => getConfig().commissionRate

/** The /v1 API as a Hono app (Request → Response): mounted in the app's server route, or served alone. */
export function createApiApp(deps: ApiDeps = {}): ApiApp {
  const getDb = deps.getDb ?? defaultGetDb
  const limits = deps.limits
  const routeDeps: RouteDeps = {
    getDb,
    rateLimit: async (name, key) => {
      if (limits === false) return
      await consume(await getDb(), name, key, limits?.[name] ?? LIMITS[name])
    },
    giveBack: async (name, key) => {
      if (limits === false) return
      await giveBack(await getDb(), name, key, limits?.[name] ?? LIMITS[name])
    },
    refuseIfLimited: async (name, key) => {
      if (limits === false) return
      const retryAfterS = await isLimited(await getDb(), name, key, limits?.[name] ?? LIMITS[name])
      if (retryAfterS > 0) throw new RateLimitedError(retryAfterS)
    },
    auth: deps.auth ?? defaultAuthSource,
    now: deps.now ?? (() => new Date()),
    cardCache:
      deps.cardCacheTtlMs && deps.events !== null
        ? createCardCache(deps.events ?? getEventBus, { ttlMs: deps.cardCacheTtlMs })
        : undefined,
  }
  const app = new OpenAPIHono<ApiEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const issues = result.error.issues.map((i) => ({ path: i.path, code: i.code, message: i.message }))
        // Thrown, not returned: a refusal after the request timeout answered 503 (a body slow to arrive) must
        // replace the timeout's error, or the idempotency and search middlewares would take the write as done.
        throw new ApiError(400, 'invalid_request', '入力内容に誤りがあります', { issues })
      }
    },
  }).basePath('/v1')

  // A database that stops answering on an open connection (no error, no reset) must not hold a request: 503.
  app.use(
    '*',
    timeout(API_REQUEST_TIMEOUT_MS, () => new RequestTimedOutError()),
  )
  // Authenticated calls per access token from API clients (the token itself is checked by each route; a forged
  // one only spends its own counter). The BFF's own in-process calls are not counted (app/api/in-process.ts):
  // asked before the body limit, which may replace the request (a body without a length) and with it the mark.
  app.use('*', async (c, next) => {
    // One counter per token, however the scheme or the token is spelt.
    const token = bearerToken(c.req.header('authorization'))
    if (token && !isInProcess(c.req.raw))
      await routeDeps.rateLimit('apiPerToken', limitKey(`Bearer ${canonicalToken(token)}`))
    await next()
  })

  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json({ code: 'payload_too_large', message: '送信するデータが大きすぎます' }, 413),
    }),
  )

  // A repeated write (network retry, double tap) with the same Idempotency-Key gets the first answer.
  app.use('*', idempotency(getDb, routeDeps.auth))

  // Every successful write that can change search results empties every instance's search cache.
  if (deps.events !== null) app.use('*', searchInvalidation(deps.events, routeDeps.cardCache?.clear))

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'アクセストークン（RS256）',
  })

  registerMasterRoutes(app, routeDeps)
  registerClassWorkRoutes(app, routeDeps)
  registerClassManagementRoutes(app, routeDeps) // before the teacher routes: fixed paths first
  registerSalesRoutes(app, routeDeps) // before the teacher routes: fixed paths first
  // The app's own provider, or one on the database given (tests, scripts).
  let ownProvider: PaymentProvider | undefined
  const payment = () => {
    if (deps.payment) return deps.payment
    if (!deps.getDb) return getPaymentProvider()
    ownProvider ??= configuredPaymentProvider(getDb)
    return ownProvider
  }
  const receiptIssuer = deps.receiptIssuer ?? currentReceiptIssuer
  registerPurchaseRoutes(app, routeDeps, {
    payment,
    commissionRate: deps.commissionRate ?? defaultCommissionRate,
    issuer: receiptIssuer,
  })
  registerPaymentRoutes(app, routeDeps, {
    payment,
    issuer: receiptIssuer,
    dataSecret: deps.dataSecret ?? defaultDataSecret,
  }) // before the teacher routes: fixed paths first
  registerTeacherRoutes(app, routeDeps)
  registerMagazineRoutes(app, routeDeps)
  registerUserRoutes(app, routeDeps)
  registerOrganizationRoutes(app, routeDeps)
  registerOrgManagementRoutes(app, routeDeps)
  registerMessageRoutes(app, routeDeps)
  registerFollowRoutes(app, routeDeps)
  registerSitemapRoutes(app, routeDeps)
  registerNoticeRoutes(app, routeDeps)
  registerLearnerRoutes(app, routeDeps)
  registerAdminRoutes(app, routeDeps)
  registerTrustRoutes(app, routeDeps)
  registerReviewRoutes(app, routeDeps)
  registerCalendarRoutes(app, routeDeps)
  registerClassRequestRoutes(app, routeDeps)
  registerWaitlistRoutes(app, routeDeps)
  registerFuriganaRoutes(app, routeDeps)
  registerNotificationSettingRoutes(app, routeDeps, {
    unsubscribeSecret: deps.unsubscribeSecret ?? defaultUnsubscribeSecret,
  })

  const documentConfig = {
    openapi: '3.1.0',
    info: {
      title: 'まなびのたね API',
      version: 'v1',
      description: 'まなびのたねの /v1 REST API。JSON は snake_case、エラーは { code, message }。',
    },
  }
  app.doc31('/openapi.json', documentConfig)
  app.get('/docs', (c) => {
    c.header('Content-Security-Policy', DOCS_CSP)
    return c.html(renderDocsPage(app.getOpenAPI31Document(documentConfig), '/v1/openapi.json'))
  })

  app.notFound((c) => c.json({ code: 'not_found', message: 'お探しの情報が見つかりませんでした' }, 404))
  app.onError((err, c) => {
    if (err instanceof RateLimitedError) {
      c.header('Retry-After', String(err.retryAfterS))
      return c.json({ code: err.code, message: err.message }, 429)
    }
    if (err instanceof PaymentProviderError) {
      // A payment provider no handler answered itself (not configured on this instance, away): logged for the
      // operators (it may be a configuration that will not heal), 503 for the member, who may try again.
      console.error('[api] payment provider unavailable:', errorLine(err))
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_S))
    }
    const known =
      err instanceof ApiError
        ? err
        : err instanceof PaymentProviderError
          ? paymentUnavailable()
          : databaseInputError(err)
    if (known) {
      const { wwwAuthenticate, ...extra } = known.extra ?? {}
      if (typeof wwwAuthenticate === 'string') c.header('WWW-Authenticate', wwwAuthenticate)
      return c.json({ code: known.code, message: known.message, ...extra }, known.status)
    }
    if (err instanceof HTTPException && err.status === 503) {
      // The route's pattern, not its path: a calendar feed's path is its secret token.
      console.error('[api] request timed out:', c.req.method, c.req.routePath)
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_S))
      return c.json({ code: 'database_unavailable', message: 'ただいまサービスを利用できません' }, 503)
    }
    if (err instanceof HTTPException) {
      const status = err.status as ContentfulStatusCode
      const code =
        status === 415 ? 'unsupported_media_type' : status === 413 ? 'payload_too_large' : 'invalid_request'
      return c.json({ code, message: '入力内容に誤りがあります' }, status >= 500 ? 400 : status)
    }
    if (isDatabaseUnavailable(err)) {
      console.error('[api] database unavailable:', errorLine(err))
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_S))
      return c.json({ code: 'database_unavailable', message: 'ただいまサービスを利用できません' }, 503)
    }
    console.error('[api] unexpected error:', withoutQueryParams(err))
    return c.json({ code: 'internal_error', message: 'サーバーで問題が発生しました。' }, 500)
  })

  return app
}

/** The app's API: the database from getDb(), access tokens checked with what setAccessTokenVerifier() was given. */
export const apiApp = createApiApp({ cardCacheTtlMs: CARD_CACHE_TTL_MS })
