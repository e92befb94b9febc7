import '@tanstack/react-start/server-only'
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import { resolveSessionSecret } from '../server/auth/secret.server'
import { getConfig } from '../server/config'
import { loadOrCreateSigningKeys, type PublicJwks, toPublicJwks } from './keys'
import { createIdentityProvider, type IdentityProvider, type IdpLimiter } from './provider'

export { DEMO_ACCOUNTS } from './accounts'
export type { PublicJwks } from './keys'
export {
  createIdentityProvider,
  IDP_CLIENT_ID,
  IDP_LOGOUT_PATH,
  IDP_MOUNT_PATH,
  IDP_ROUTES,
  type IdentityProvider,
  type IdentityProviderOptions,
  type IdpClient,
  type IdpTtl,
  type OidcDiscoveryDocument,
} from './provider'

/** The app's shared, database-backed rate limits (app/lib/limits.ts) for password attempts and sign-ups. */
const databaseLimiter: IdpLimiter = {
  async consume(name, key) {
    // Automated browser tests (IDP_TEST_LOGIN, never with Auth0) sign up a fresh member per journey from one
    // address; the per-address sign-up limit is proven by tests/integration/idp-rate-limit.test.ts instead.
    if (name === 'signupPerAddress' && getConfig().idpTestLogin) return
    const [{ getDb }, { consume, limitKey }] = await Promise.all([
      import('../db/client'),
      import('../db/rate-limit'),
    ])
    await consume(await getDb(), name, limitKey(key))
  },
  async reset(name, key) {
    const [{ getDb }, { reset, limitKey }] = await Promise.all([
      import('../db/client'),
      import('../db/rate-limit'),
    ])
    await reset(await getDb(), name, limitKey(key))
  },
  async giveBack(name, key) {
    const [{ getDb }, { giveBack, limitKey }] = await Promise.all([
      import('../db/client'),
      import('../db/rate-limit'),
    ])
    await giveBack(await getDb(), name, limitKey(key))
  },
}

/** The confirmation mail of a sign-up, as a job in the app's database (sent by the job runner, app/notifications). */
async function queueVerificationMail(input: { email: string; verifyUrl: string; expiresHours: number }) {
  const [{ getDb }, { enqueue }, { MAIL_MAX_ATTEMPTS }] = await Promise.all([
    import('../db/client'),
    import('../jobs/queue.server'),
    import('../mail/mailer.server'),
  ])
  const host = new URL(getConfig().siteOrigin).hostname || 'manabi.example'
  await enqueue(
    await getDb(),
    'mail.send',
    {
      messageId: `<verify-${randomUUID()}@${host}>`,
      to: input.email,
      template: 'verify_email',
      props: { verifyUrl: input.verifyUrl, expiresHours: input.expiresHours },
    },
    { maxAttempts: MAIL_MAX_ATTEMPTS },
  )
}

// Kept on globalThis so that a dev-server module reload does not start a second provider (and sign everyone out).
const SINGLETON = Symbol.for('manabi.identityProvider')
type Holder = { [SINGLETON]?: IdentityProvider }

/** The embedded provider for this process, configured from getConfig() (issuer `${SITE_ORIGIN}/idp`). */
export function getIdentityProvider(): IdentityProvider {
  const holder = globalThis as Holder
  if (!holder[SINGLETON]) {
    const config = getConfig()
    holder[SINGLETON] = createIdentityProvider({
      siteOrigin: config.siteOrigin,
      dataDir: config.dataDir,
      secret: resolveSessionSecret(config),
      testLogin: config.idpTestLogin,
      limiter: databaseLimiter,
      demoAccounts: config.seedDemo,
      sendVerificationMail: queueVerificationMail,
      onSignInFailed: async ({ email, address, reason }) => {
        const [{ getDb }, { audit }] = await Promise.all([import('../db/client'), import('../db/audit')])
        await audit(await getDb(), {
          actorLabel: email || '(メールアドレスなし)',
          action: 'sign_in_failed',
          address,
          after: { reason },
        })
      },
      mailboxUrl: (email) =>
        config.mailboxEnabled
          ? `${config.siteOrigin}/test/mailbox?${new URLSearchParams({ to: email })}`
          : undefined,
    })
  }
  return holder[SINGLETON]
}

/** True when the embedded provider is the identity provider (Auth0 is not configured). */
export function isEmbeddedIdpEnabled(): boolean {
  return getConfig().auth0 === undefined
}

/**
 * Node handler for every request whose path starts with /idp (production server and Vite dev middleware alike).
 * Accepts both the full URL (`/idp/authorize?…`) and a connect-style mount that already stripped `/idp`.
 * Answers 404 when Auth0 is configured.
 */
export function idpNodeHandler(req: IncomingMessage, res: ServerResponse): void {
  if (!isEmbeddedIdpEnabled()) {
    res.statusCode = 404
    res.setHeader('Content-Type', 'text/plain; charset=utf-8')
    res.end('Not Found')
    return
  }
  getIdentityProvider().handler(req, res)
}

/** The embedded provider's public signing keys, for in-process access-token verification (no HTTP). */
export function getIdpPublicJwks(): PublicJwks {
  return toPublicJwks(loadOrCreateSigningKeys(join(getConfig().dataDir, 'idp', 'jwks.json')))
}
