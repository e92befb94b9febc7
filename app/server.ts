import { createStartHandler } from '@tanstack/react-start/server'
import { createServerEntry } from '@tanstack/react-start/server-entry'
import { closeDb, getDatabase } from './db/client'
import { prepareDataDir } from './db/data-dir'
import { closeEventBus } from './db/events'
import { trackPageReads } from './db/page-reads'
import { getIdentityProvider, idpNodeHandler, isEmbeddedIdpEnabled } from './idp'
import { startBackgroundWork, stopBackgroundWork } from './notifications/runtime.server'
import { assertSessionSecret } from './server/auth/session.server'
import { getConfig } from './server/config'
import { closeLiveStreams } from './server/live-stream.server'
import { logger } from './server/logger.server'
import { renderPage } from './server/render-page.server'
import { answerRenderedPage } from './server/response-policy.server'
import { getStorageConfig } from './server/storage-config.server'

/**
 * Node handlers mounted in front of the fetch handler by scripts/serve.mjs (production). The embedded identity
 * provider (oidc-provider) is a Node request handler, served on the site's own origin under /idp.
 */
export { logger }

export const nodeHandlers = [{ prefix: '/idp', handle: idpNodeHandler }]

/** What scripts/serve.mjs needs from the validated configuration. */
export interface ServerOptions {
  siteOrigin: string
  port: number
  trustProxy: boolean
  maxJsonBytes: number
  maxUploadBytes: number
  shutdownGraceSeconds: number
  secureCookies: boolean
}

/**
 * Runs before the server listens, so that a bad configuration stops the process with one line (exit 1) instead of
 * failing in the first request: the variables, DATA_DIR, the session secret, and the embedded database, whose
 * folder lock makes a second process on the same DATA_DIR refuse to start. A PostgreSQL server that is not
 * reachable yet does not stop the start: /readyz says so until it is.
 */
export async function onServerStart(): Promise<ServerOptions> {
  const config = getConfig()
  getStorageConfig()
  prepareDataDir(config.dataDir)
  if (config.databaseUrl) {
    assertSessionSecret()
    getDatabase().catch((error) =>
      logger.warn({ err: error }, 'PostgreSQL is not reachable yet; requests answer 503 until it is'),
    )
  } else {
    // Before anything writes to DATA_DIR: the folder lock is taken when the embedded database opens.
    await getDatabase()
    assertSessionSecret()
  }
  // Mail, reminders and live updates: every instance runs jobs (docs/decisions/0017).
  startBackgroundWork()
  return {
    siteOrigin: config.siteOrigin,
    port: config.port,
    trustProxy: config.trustProxy,
    maxJsonBytes: config.maxJsonBytes,
    maxUploadBytes: config.maxUploadBytes,
    shutdownGraceSeconds: config.shutdownGraceSeconds,
    secureCookies: config.secureCookies,
  }
}

/** Called by scripts/serve.mjs when SIGTERM/SIGINT starts the drain: open /events streams end now, not at the grace. */
export async function onServerDrain() {
  await closeLiveStreams()
}

/** Runs on SIGTERM/SIGINT after the requests in flight: the embedded provider saves its state, the database closes. */
export async function onServerStop() {
  if (isEmbeddedIdpEnabled()) await getIdentityProvider().flush?.()
  await stopBackgroundWork(getConfig().shutdownGraceSeconds * 1000)
  await closeEventBus()
  await closeDb()
}

/** Start's request handler, with pages rendered to one string (render-page.server.tsx, docs/decisions/0032). */
const fetchStart = createStartHandler(renderPage)

/**
 * The server entry of the Start build; scripts/serve.mjs serves it with Node's http server. A visitor's page whose
 * reads are all still current is answered as it was rendered; every other request runs with its reads recorded,
 * so that its page can be kept (docs/decisions/0033).
 */
export default createServerEntry({
  fetch(request) {
    return answerRenderedPage(request) ?? trackPageReads(() => fetchStart(request))
  },
})
