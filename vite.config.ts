import { posix } from 'node:path'
import tailwindcss from '@tailwindcss/vite'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import viteReact from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { preserveRepeatedSetCookie } from './app/server/auth/preserve-set-cookie.server'
import { lowerServerObjectSpread } from './scripts/lower-object-spread'

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

/**
 * The app has no infinite queries, yet TanStack Query's `Query` imports their page-fetching behaviour (and its
 * helpers) for the day one exists: ~0.5 KB gzip on every first load. In the browser build that module is a stub
 * that throws a clear error if it is ever called (docs/decisions/0008). So that it is never called, the build
 * fails when a module of the app in the browser build names an infinite query (`useInfiniteQuery`,
 * `infiniteQueryOptions`, `fetchInfiniteQuery`, `queryClient.infiniteQuery`, …) or when the infinite observer has
 * code in a chunk: remove this plugin then. (A server-only module could still dehydrate one; none does.)
 */
const INFINITE_QUERY_API =
  /\b(?:use(?:Suspense)?InfiniteQuery|infiniteQueryOptions|(?:fetch|prefetch)InfiniteQuery|ensureInfiniteQueryData|InfiniteQueryObserver|infiniteQuery)\b/

function noInfiniteQueries(): Plugin {
  const stubId = '\0manabi:no-infinite-queries'
  return {
    name: 'manabi:no-infinite-queries',
    enforce: 'pre',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    resolveId(source, importer) {
      return source === './infiniteQueryBehavior.js' &&
        /[\\/]@tanstack[\\/]query-core[\\/]/.test(importer ?? '')
        ? stubId
        : null
    },
    transform(code, id) {
      if (/[\\/]node_modules[\\/]/.test(id) || !/[\\/]app[\\/]/.test(id)) return null
      const named = code.match(INFINITE_QUERY_API)
      if (named)
        this.error(`noInfiniteQueries: ${id} uses ${named[0]}; remove the plugin from vite.config.ts`)
      return null
    },
    load(id) {
      if (id !== stubId) return null
      return `const off = () => {
  throw new Error('Infinite queries are left out of the browser build (noInfiniteQueries in vite.config.ts)')
}
export const infiniteQueryBehavior = off
export const hasNextPage = off
export const hasPreviousPage = off`
    },
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle))
        if (file.type === 'chunk')
          for (const [id, module] of Object.entries(file.modules))
            if (/[\\/]infiniteQueryObserver\.js$/.test(id) && module.renderedLength > 0)
              this.error(
                `noInfiniteQueries: ${file.fileName} uses infinite queries; remove the plugin from vite.config.ts`,
              )
    },
  }
}

/**
 * Lazy chunks load without Vite's preload table (`build.modulePreload: false`, docs/decisions/0008). A first load
 * does not need it: the page already names every chunk it needs for a modulepreload (added by the boot script after
 * the first paint, 0034). It only sped up
 * client navigation, and cost every first load ~1.6 KB gzip (each chunk's name and hash, in the entry). Two things
 * keep navigation close to what it was:
 * - each chunk names all the chunks it needs, not only its direct imports (what Rollup's hoistTransitiveImports
 *   does, which Rolldown lacks), so the browser fetches them together as soon as the chunk arrives: one round trip
 *   more than with the table, not one per level of the import graph;
 * - Vite's preload helper, which now never has anything to preload, is replaced with the part that still matters:
 *   a failed import fires `vite:preloadError` (the shell reloads the page on it after a deploy).
 * The build fails if a lazy import still has dependencies to preload (a chunk that imports its own CSS), which the
 * small helper would skip.
 */
function leanChunkLoading(): Plugin {
  const helperId = '\0vite/preload-helper.js'
  return {
    name: 'manabi:lean-chunk-loading',
    enforce: 'pre',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    load(id) {
      if (id !== helperId) return null
      return `export const __vitePreload = (load) => load().catch((error) => {
  const event = new Event('vite:preloadError', { cancelable: true })
  event.payload = error
  window.dispatchEvent(event)
  if (!event.defaultPrevented) throw error
})`
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = new Map<string, string[]>()
        for (const file of Object.values(bundle))
          if (file.type === 'chunk') {
            if (file.code.includes('__vite__mapDeps'))
              this.error(
                `leanChunkLoading: ${file.fileName} has dependencies to preload, which the small helper skips`,
              )
            chunks.set(file.fileName, file.imports)
          }
        for (const file of Object.values(bundle)) {
          if (file.type !== 'chunk') continue
          const direct = new Set(file.imports)
          const seen = new Set<string>()
          const visit = (name: string) => {
            for (const dep of chunks.get(name) ?? [])
              if (!seen.has(dep)) {
                seen.add(dep)
                visit(dep)
              }
          }
          visit(file.fileName)
          const hoisted = [...seen].filter((dep) => !direct.has(dep) && dep !== file.fileName)
          if (hoisted.length === 0) continue
          const imports = hoisted.map(
            (dep) => `import"./${posix.relative(posix.dirname(file.fileName), dep)}";`,
          )
          // On a line of their own after the code (before a source map comment), so that its source map stays valid.
          const end = file.code.match(/\n\/\/# sourceMappingURL=[^\n]*\n?$/)?.index ?? file.code.length
          file.code = `${file.code.slice(0, end)}\n${imports.join('')}${file.code.slice(end)}`
        }
      },
    },
  }
}

// Start's Vite plugin (not the retired vinxi setup): see docs/decisions/0001-start-vite-plugin.md
export default defineConfig({
  server: { port: Number(process.env.PORT ?? 3000) },
  // BUILD_DIR lets parallel test runs keep separate builds (scripts/start.mjs and serve.mjs read it too);
  // BUILD_SOURCEMAP=1 adds source maps for size analysis (docs/decisions/0008).
  build: {
    outDir: process.env.BUILD_DIR ?? 'dist',
    sourcemap: process.env.BUILD_SOURCEMAP === '1',
    modulePreload: false,
  },
  resolve: {
    tsconfigPaths: true,
    // TanStack Store asks for the shim of useSyncExternalStore, which exists for React before 18; React 19 has the
    // hook, so the shim-free build of the same selector helper is enough (~0.2 KB gzip off every first load).
    alias: [
      {
        find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
        replacement: 'use-sync-external-store/with-selector.js',
      },
    ],
  },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // React and TanStack are needed by every page: one framework chunk compresses better than the dozen
            // small shared chunks the default splitting makes (~6 KB gzip less on every first load) and stays
            // cached across deploys of app code. Framework code that only later work needs stays out of it, or
            // the group would pull it into every first load: the mutation hooks (pages that act), the
            // server-function transport with seroval and the serializer plugins (lazyServerFnTransport), and the
            // client side of server functions (createServerFn and its RPC stub, ~1 KB gzip): the root's and the
            // list pages' queries import their functions when they first run (a first load's data comes with the
            // HTML), so a first load of those pages has no server-function code at all.
            codeSplitting: {
              groups: [
                {
                  name: (id: string) =>
                    /node_modules[\\/](react|react-dom|scheduler|@tanstack|cookie-es|use-sync-external-store)[\\/]/.test(
                      id,
                    ) &&
                    !/[\\/](useMutation|mutationObserver|serverFnFetcher|frame-decoder|getDefaultSerovalPlugins|createServerFn|createClientRpc|useServerFn)\.js$|[\\/]ssr[\\/]serializer[\\/]/.test(
                      id,
                    )
                      ? 'framework'
                      : null,
                },
                {
                  // What pages that act (favorites, follows, reservations, forms) share: the optimistic toggle,
                  // the viewer and the on-demand modal, in one chunk instead of three small ones. The mutation
                  // hooks are not in it: the teacher page's only action is a toggle, which does not use them.
                  name: (id: string) =>
                    /[\\/]app[\\/]components[\\/](shell[\\/](optimistic-toggle|use-viewer|use-action)\.ts|ui[\\/]modal\.tsx)$/.test(
                      id,
                    )
                      ? 'interaction'
                      : null,
                },
                {
                  // What the class and teacher pages share besides cards: the share buttons and the gone page's
                  // loader; one chunk, not two small ones. The report button is not in it: the class page loads it
                  // when the foot of the page comes into view.
                  name: (id: string) =>
                    /[\\/]app[\\/]components[\\/]ui[\\/](share-buttons|lazy-gone-page)\.tsx$/.test(id)
                      ? 'page-actions'
                      : null,
                },
                {
                  // The mutation hooks, for pages with forms and actions (one chunk, not two tiny ones).
                  name: (id: string) =>
                    /[\\/](useMutation|mutationObserver)\.js$/.test(id) ? 'mutation' : null,
                },
                {
                  // What every public page that lists or shows classes paints with (the verified badge, the date
                  // and price formats, picture widths, the page's furigana): one chunk instead of four tiny ones
                  // (each file costs its own gzip framing and import list on a first load).
                  name: (id: string) =>
                    /[\\/]app[\\/](components[\\/]ui[\\/]verified-badge\.tsx|lib[\\/](format|responsive-image|class-labels)\.ts|features[\\/]furigana[\\/]page-furigana\.tsx)$/.test(
                      id,
                    )
                      ? 'page-basics'
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
    lowerServerObjectSpread(),
    lazyServerFnTransport(),
    noInfiniteQueries(),
    leanChunkLoading(),
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
