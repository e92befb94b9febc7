/**
 * Runs the embedded identity provider on its own, on loopback IDP_PORT (default 4400), under /idp:
 *   npx tsx scripts/idp.ts
 * Issuer: http://localhost:$IDP_PORT/idp. Redirect URIs still point at SITE_ORIGIN/auth/callback.
 * (The app itself serves the provider on its own origin under /idp; this is for trying the provider alone.)
 */
import { createServer } from 'node:http'
import { createIdentityProvider, DEMO_ACCOUNTS } from '../app/idp'
import { resolveSessionSecret } from '../app/server/auth/secret.server'
import { getConfig } from '../app/server/config'

const config = getConfig()
if (config.auth0) {
  console.warn('Auth0 is configured; the embedded provider is not used by the app, but starts anyway.')
}
const issuer = `http://localhost:${config.idpPort}/idp`
const idp = createIdentityProvider({
  siteOrigin: config.siteOrigin,
  issuer,
  dataDir: config.dataDir,
  secret: resolveSessionSecret(config),
  testLogin: config.idpTestLogin,
})

const server = createServer((req, res) => idp.handler(req, res))
server.listen(config.idpPort, '127.0.0.1', () => {
  console.log(`Embedded identity provider: ${issuer}`)
  console.log(`  discovery: ${issuer}/.well-known/openid-configuration`)
  console.log(`  client:    ${idp.client.clientId} → ${idp.client.redirectUri}`)
  console.log(`  test login (login_hint): ${config.idpTestLogin ? 'on' : 'off'}`)
  for (const account of DEMO_ACCOUNTS)
    console.log(`  ${account.sub.padEnd(22)} ${account.email ?? '(LINE, no e-mail)'}`)
})

const stop = () => {
  idp.flush()
  server.close(() => process.exit(0))
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
