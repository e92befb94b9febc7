/**
 * Serves the /v1 API alone (no pages) with @hono/node-server:  npm run api
 * Port: API_PORT (default 4000). Database and access-token settings are the app's (DATA_DIR / DATABASE_URL,
 * the embedded identity provider or Auth0). Point the app at it with API_BASE_URL=http://localhost:4000.
 */
import { serve } from '@hono/node-server'
import { closeDb, getDatabase } from '../app/db/client'
import { getApiApp } from '../app/server/api-app.server'
import { withCallerAddress } from '../app/server/api-caller-address.server'

const port = Number(process.env.API_PORT ?? 4000)
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`API_PORT must be a port number (got ${process.env.API_PORT})`)
  process.exit(1)
}

// Open (and migrate, and seed) before listening, so that a broken database stops the process with its message.
try {
  const database = await getDatabase()
  console.log(`Database: ${database.kind}`)
} catch (err) {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
}

const app = getApiApp()
const trustedPeers = (process.env.API_TRUSTED_PEERS ?? '')
  .split(',')
  .map((p) => p.trim())
  .filter(Boolean)
// The address the audit log records: the app passes the browser's (X-Real-IP); an API client cannot choose its own.
const fetch = withCallerAddress(app.fetch, trustedPeers)
const server = serve({ fetch, port, hostname: process.env.API_HOST ?? '127.0.0.1' }, (info) => {
  console.log(
    `/v1 API on http://${info.address}:${info.port}/v1  (reference: /v1/docs, OpenAPI: /v1/openapi.json)`,
  )
})

const stop = () => {
  server.close(() => {
    void closeDb().finally(() => process.exit(0))
  })
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
