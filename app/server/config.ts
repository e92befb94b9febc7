import '@tanstack/react-start/server-only'
import { z } from 'zod'

/**
 * The server's environment, parsed once. A bad value stops the process at start with a readable message
 * instead of failing later in a request. Every variable is listed in .env.example.
 */
const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true')

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined))

/** An origin: http(s), a host, an optional port, nothing else (canonical links and OAuth redirects are built on it). */
const origin = z.string().refine(
  (v) => {
    try {
      const u = new URL(v)
      return (
        (u.protocol === 'http:' || u.protocol === 'https:') &&
        u.hostname !== '' &&
        (u.pathname === '/' || u.pathname === '') &&
        !u.search &&
        !u.hash &&
        !u.username
      )
    } catch {
      return false
    }
  },
  {
    message:
      'must be an origin such as https://manabi.example or http://localhost:3000 (scheme, host, optional port; no path)',
  },
)

const postgresUrl = z.string().refine(
  (v) => {
    try {
      const u = new URL(v)
      return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname !== ''
    } catch {
      return false
    }
  },
  { message: 'must be a PostgreSQL URL such as postgres://user:password@host:5432/database' },
)

const positiveBytes = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(fallback)

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    APP_ENV: z.enum(['production', 'staging', 'development']).optional(),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    SITE_ORIGIN: optionalString.pipe(origin.optional()),
    DATA_DIR: optionalString.pipe(z.string().default('.data')),
    DATABASE_URL: optionalString.pipe(postgresUrl.optional()),
    API_BASE_URL: optionalString.pipe(
      z
        .url({ protocol: /^https?$/, message: 'must be an http(s) URL such as http://localhost:4000' })
        .optional(),
    ),
    SESSION_SECRET: optionalString.pipe(
      z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
    ),
    /** Behind a load balancer or proxy: take the client address from X-Forwarded-For (rate limits, logs). */
    TRUST_PROXY: flag,
    /** Largest JSON body of a server function or /v1 call, in bytes. */
    MAX_JSON_BYTES: positiveBytes(1024 * 1024),
    /** Largest upload (multipart) body, in bytes. */
    MAX_UPLOAD_BYTES: positiveBytes(10 * 1024 * 1024),
    /** Seconds SIGTERM waits for requests in flight before closing the database. */
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(600).default(10),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    AUTH0_DOMAIN: optionalString,
    AUTH0_CLIENT_ID: optionalString,
    AUTH0_CLIENT_SECRET: optionalString,
    AUTH0_AUDIENCE: optionalString,
    IDP_PORT: z.coerce.number().int().min(1).max(65535).default(4400),
    ENABLE_TEST_PAGES: flag,
    IDP_TEST_LOGIN: flag,
    COMMISSION_RATE: z.coerce.number().min(0).max(1).default(0.2),
    SEED_DEMO: z.enum(['0', '1', 'true', 'false']).optional(),
    /** Send mail through this SMTP server (smtp://user:pass@host:587, smtps://…); unset: kept in the database. */
    SMTP_URL: optionalString.pipe(
      z
        .url({
          protocol: /^smtps?$/,
          message: 'must be an SMTP URL such as smtp://user:password@smtp.example:587',
        })
        .optional(),
    ),
    MAIL_FROM: optionalString.pipe(
      z
        .string()
        .regex(/^(.+<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/, {
          message: 'must be an address such as "まなびのたね <no-reply@manabi.example>"',
        })
        .default('まなびのたね <no-reply@manabi.example>'),
    ),
    /** Stripe (issue 17): all three switch payments from the embedded test provider to Stripe. */
    STRIPE_SECRET_KEY: optionalString.pipe(
      z
        .string()
        .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, 'must be a Stripe secret key (sk_test_… or sk_live_…)')
        .optional(),
    ),
    STRIPE_PUBLISHABLE_KEY: optionalString.pipe(
      z
        .string()
        .regex(/^pk_(test|live)_[A-Za-z0-9]+$/, 'must be a Stripe publishable key (pk_test_… or pk_live_…)')
        .optional(),
    ),
    STRIPE_WEBHOOK_SECRET: optionalString.pipe(
      z
        .string()
        .regex(/^whsec_[A-Za-z0-9]+$/, 'must be a Stripe webhook signing secret (whsec_…)')
        .optional(),
    ),
    /** Benchmarks and tests: every response says how many database statements it took (X-DB-Queries). */
    QUERY_COUNT_HEADER: flag,
    /** 適格請求書発行事業者登録番号, printed on receipts: T and 13 digits. */
    INVOICE_REGISTRATION_NUMBER: optionalString.pipe(
      z
        .string()
        .regex(/^T\d{13}$/, 'must be T followed by 13 digits (T1234567890123)')
        .optional(),
    ),
  })
  .superRefine((env, ctx) => {
    const auth0 = [env.AUTH0_DOMAIN, env.AUTH0_CLIENT_ID, env.AUTH0_CLIENT_SECRET, env.AUTH0_AUDIENCE]
    const set = auth0.filter(Boolean).length
    if (set > 0 && set < auth0.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['AUTH0_DOMAIN'],
        message: 'AUTH0_DOMAIN, AUTH0_CLIENT_ID, AUTH0_CLIENT_SECRET and AUTH0_AUDIENCE must be set together',
      })
    }
    const stripe = [env.STRIPE_SECRET_KEY, env.STRIPE_PUBLISHABLE_KEY, env.STRIPE_WEBHOOK_SECRET]
    const stripeSet = stripe.filter(Boolean).length
    if (stripeSet > 0 && stripeSet < stripe.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_SECRET_KEY'],
        message: 'STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET must be set together',
      })
    }
    if (env.NODE_ENV === 'production' && set === auth0.length && env.IDP_TEST_LOGIN) {
      ctx.addIssue({
        code: 'custom',
        path: ['IDP_TEST_LOGIN'],
        message: 'IDP_TEST_LOGIN is never allowed with Auth0',
      })
    }
  })

export type ServerConfig = ReturnType<typeof buildConfig>

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** One line per wrong variable: its name, the value given (secrets hidden) and what to set instead. */
export function configError(
  issues: { path: PropertyKey[]; message: string }[],
  env: Record<string, string | undefined>,
  fallbackName = '(env)',
): ConfigError {
  const lines = issues.map((i) => {
    const name = String(i.path[0] ?? fallbackName)
    const given = env[name]
    const shown =
      given === undefined ? '' : /SECRET|PASSWORD|KEY/.test(name) ? '=(hidden)' : `=${JSON.stringify(given)}`
    return `Configuration error: ${name}${shown} ${i.message} (see .env.example)`
  })
  return new ConfigError(lines.join('\n'))
}

/**
 * Parses the environment. A wrong value throws a ConfigError whose message is one line per wrong variable:
 * its name, the value given (secrets hidden) and what to set instead.
 */
export function parseEnv(env: Record<string, string | undefined>) {
  const result = envSchema.safeParse(env)
  if (!result.success) throw configError(result.error.issues, env)
  return buildConfig(result.data)
}

function buildConfig(env: z.infer<typeof envSchema>) {
  const isProduction = env.NODE_ENV === 'production'
  const siteOrigin = (env.SITE_ORIGIN ?? `http://localhost:${env.PORT}`).replace(/\/$/, '')
  const useAuth0 = Boolean(env.AUTH0_DOMAIN)
  return {
    isProduction,
    /**
     * A real deployment: production with Auth0. Only then must SESSION_SECRET be set; `npm start` (production
     * build, embedded provider, demo data) generates one into DATA_DIR like development does.
     */
    requiresSessionSecret: isProduction && useAuth0,
    /** Secure cookies (and the __Host- prefix) whenever the site is served over https. */
    secureCookies: siteOrigin.startsWith('https://'),
    environment: env.APP_ENV ?? (isProduction ? 'production' : 'development'),
    port: env.PORT,
    siteOrigin,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    apiBaseUrl: env.API_BASE_URL,
    sessionSecret: env.SESSION_SECRET,
    auth0: useAuth0
      ? {
          domain: env.AUTH0_DOMAIN!,
          clientId: env.AUTH0_CLIENT_ID!,
          clientSecret: env.AUTH0_CLIENT_SECRET!,
          audience: env.AUTH0_AUDIENCE!,
        }
      : undefined,
    idpPort: env.IDP_PORT,
    /** Test pages are on in development and tests; in production only when ENABLE_TEST_PAGES=1. */
    testPagesEnabled: !isProduction || env.ENABLE_TEST_PAGES,
    idpTestLogin: !useAuth0 && env.IDP_TEST_LOGIN,
    commissionRate: env.COMMISSION_RATE,
    trustProxy: env.TRUST_PROXY,
    maxJsonBytes: env.MAX_JSON_BYTES,
    maxUploadBytes: env.MAX_UPLOAD_BYTES,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    logLevel: env.LOG_LEVEL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    /** Payments through Stripe when its keys are set; else the embedded test provider (test cards, no network). */
    stripe: env.STRIPE_SECRET_KEY
      ? {
          secretKey: env.STRIPE_SECRET_KEY,
          publishableKey: env.STRIPE_PUBLISHABLE_KEY!,
          webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
        }
      : undefined,
    invoiceRegistrationNumber: env.INVOICE_REGISTRATION_NUMBER,
    queryCountHeader: env.QUERY_COUNT_HEADER,
    /**
     * The database mailbox (/test/mailbox): only while mails are kept in the database (no SMTP_URL), in development,
     * tests and the demo (embedded provider); never in production with Auth0.
     */
    mailboxEnabled: !env.SMTP_URL && !(isProduction && useAuth0),
    /** Demo content in an empty database: yes, except for a real deployment (production with Auth0). */
    seedDemo:
      env.SEED_DEMO === undefined
        ? !(isProduction && useAuth0)
        : env.SEED_DEMO === '1' || env.SEED_DEMO === 'true',
  } as const
}

let cached: ReturnType<typeof buildConfig> | undefined

export function getConfig() {
  cached ??= parseEnv(process.env)
  return cached
}
