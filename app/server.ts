import handler, { createServerEntry } from '@tanstack/react-start/server-entry'
import { getIdentityProvider, idpNodeHandler, isEmbeddedIdpEnabled } from './idp'
import { assertSessionSecret } from './server/auth/session.server'
import { getConfig } from './server/config'

/**
 * Node handlers mounted in front of the fetch handler by scripts/serve.mjs (production). The embedded identity
 * provider (oidc-provider) is a Node request handler, served on the site's own origin under /idp.
 */
export const nodeHandlers = [{ prefix: '/idp', handle: idpNodeHandler }]

/**
 * Runs before the server listens: a bad configuration or a missing production secret stops the process with a
 * readable message instead of failing in the first request.
 */
export function onServerStart() {
  getConfig()
  assertSessionSecret()
}

/** Runs on SIGTERM/SIGINT: the embedded provider saves its sessions and grants. */
export async function onServerStop() {
  if (isEmbeddedIdpEnabled()) await getIdentityProvider().flush?.()
}

/** The server entry of the Start build; scripts/serve.mjs serves it with Node's http server. */
export default createServerEntry({
  fetch(request) {
    return handler.fetch(request)
  },
})
