import handler, { createServerEntry } from '@tanstack/react-start/server-entry'

/**
 * The server entry of the Start build. scripts/serve.mjs (production) imports this bundle and serves it
 * with Node's http server; named exports here are the extra Node handlers it mounts.
 */
export default createServerEntry({
  fetch(request) {
    return handler.fetch(request)
  },
})
