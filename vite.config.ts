import tailwindcss from '@tailwindcss/vite'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import viteReact from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { preserveRepeatedSetCookie } from './app/server/auth/preserve-set-cookie.server'

/**
 * In development the embedded identity provider is mounted under /idp, as scripts/serve.mjs does in production, and
 * the job runner (mail, reminders, live updates) starts with the server.
 */
function embeddedIdpDev(): Plugin {
  return {
    name: 'manabi:embedded-idp-dev',
    apply: 'serve',
    configureServer(server) {
      server.httpServer?.once('listening', () => {
        server
          .ssrLoadModule('/app/notifications/runtime.server.ts')
          .then((mod) => mod.startBackgroundWork())
          .catch((error) => server.config.logger.error(`job runner did not start: ${error}`))
      })
      // Node 20 + srvx drop repeated Set-Cookie headers behind Vite's middlewares (see the helper's comment).
      server.middlewares.use((_req, res, next) => {
        preserveRepeatedSetCookie(res)
        next()
      })
      server.middlewares.use(async (req, res, next) => {
        const path = req.originalUrl ?? req.url ?? ''
        if (path !== '/idp' && !path.startsWith('/idp/') && !path.startsWith('/idp?')) return next()
        try {
          req.url = path
          const mod = await server.ssrLoadModule('/app/idp/index.ts')
          mod.idpNodeHandler(req, res)
        } catch (error) {
          next(error)
        }
      })
    },
  }
}

/**
 * The browser's server-function transport (Start's `serverFnFetcher` with seroval's serializer and deserializer
 * and the framed-response decoder, ~11 KB gzip) is only needed when a server function is called from the browser,
 * which a first load never does: its data arrives with the HTML. This loads it on the first call instead
 * (docs/decisions/0008). Build only: in development the dependency optimizer has already bundled the package.
 */
function lazyServerFnTransport(): Plugin {
  const virtualId = '\0manabi:lazy-server-fn-fetcher'
  let realPath: string | undefined
  return {
    name: 'manabi:lazy-server-fn-transport',
    enforce: 'pre',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    async resolveId(source, importer, options) {
      if (
        source !== './serverFnFetcher.js' ||
        !/[\\/]client-rpc[\\/]createClientRpc\.js$/.test(importer ?? '')
      )
        return null
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true })
      if (!resolved) return null
      realPath = resolved.id
      return virtualId
    },
    load(id) {
      if (id !== virtualId || !realPath) return null
      return `export function serverFnFetcher(...args) {
  return import(${JSON.stringify(realPath)}).then((m) => m.serverFnFetcher(...args))
}`
    },
    buildEnd(error) {
      if (error) return
      // A Start upgrade that moves the fetcher must not silently put it back into every first load.
      if (!realPath)
        this.error(
          'lazyServerFnTransport: @tanstack/start-client-core no longer imports ./serverFnFetcher.js from createClientRpc.js',
        )
    },
  }
}

// Start's Vite plugin (not the retired vinxi setup): see docs/decisions/0001-start-vite-plugin.md
export default defineConfig({
  server: { port: Number(process.env.PORT ?? 3000) },
  // BUILD_DIR lets parallel test runs keep separate builds (scripts/start.mjs and serve.mjs read it too).
  build: { outDir: process.env.BUILD_DIR ?? 'dist' },
  resolve: { tsconfigPaths: true },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // React and TanStack are needed by every page: one framework chunk compresses better than the dozen
            // small shared chunks the default splitting makes (~6 KB gzip less on every first load) and stays
            // cached across deploys of app code. Framework code that only later work needs stays out of it, or
            // the group would pull it into every first load: the mutation hooks (pages that act) and the
            // server-function transport with seroval and the serializer plugins (lazyServerFnTransport).
            codeSplitting: {
              groups: [
                {
                  name: (id: string) =>
                    /node_modules[\\/](react|react-dom|scheduler|@tanstack|cookie-es|use-sync-external-store)[\\/]/.test(
                      id,
                    ) &&
                    !/[\\/](useMutation|mutationObserver|serverFnFetcher|frame-decoder|getDefaultSerovalPlugins)\.js$|[\\/]ssr[\\/]serializer[\\/]/.test(
                      id,
                    )
                      ? 'framework'
                      : null,
                },
                {
                  // What pages that act (favorites, follows, reservations, forms) share: the mutation hooks, the
                  // optimistic toggle, the viewer and the on-demand modal, in one chunk instead of three small ones.
                  name: (id: string) =>
                    /[\\/](useMutation|mutationObserver)\.js$|[\\/]app[\\/]components[\\/](shell[\\/](optimistic-toggle|use-viewer)\.ts|ui[\\/]modal\.tsx)$/.test(
                      id,
                    )
                      ? 'interaction'
                      : null,
                },
              ],
            },
          },
        },
      },
    },
  },
  plugins: [
    embeddedIdpDev(),
    lazyServerFnTransport(),
    tailwindcss(),
    tanstackStart({
      srcDirectory: 'app',
      router: {
        codeSplittingOptions: {
          defaultBehavior: [
            ['loader', 'component'],
            ['errorComponent'],
            ['notFoundComponent'],
            ['pendingComponent'],
          ],
        },
      },
      // Server-only layers never reach the browser bundle (ARCHITECTURE.md).
      importProtection: {
        behavior: 'error',
        client: {
          specifiers: ['@tanstack/react-start/server'],
          files: [
            '**/*.server.*',
            '**/app/server/**',
            '**/app/api/**',
            '**/app/db/**',
            '**/app/idp/**',
            '**/app/jobs/**',
            '**/app/mail/**',
            '**/app/notifications/**',
          ],
        },
      },
    }),
    viteReact(),
  ],
})
