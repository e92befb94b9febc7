import tailwindcss from '@tailwindcss/vite'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import viteReact from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { preserveRepeatedSetCookie } from './app/server/auth/preserve-set-cookie.server'

/** In development the embedded identity provider is mounted under /idp, as scripts/serve.mjs does in production. */
function embeddedIdpDev(): Plugin {
  return {
    name: 'manabi:embedded-idp-dev',
    apply: 'serve',
    configureServer(server) {
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
            // React, TanStack and Start's serializer are needed by every page: one framework chunk compresses
            // better than the dozen small shared chunks the default splitting makes (~6 KB gzip less on every
            // first load) and stays cached across deploys of app code. Lazy libraries (Radix, DOMPurify) stay
            // apart, and so do the mutation hooks, which only pages with forms and toggles use.
            codeSplitting: {
              groups: [
                {
                  name: (id: string) =>
                    /node_modules[\\/](react|react-dom|scheduler|@tanstack|seroval|seroval-plugins|cookie-es|use-sync-external-store)[\\/]/.test(
                      id,
                    ) && !/[\\/](useMutation|mutationObserver)\.js$/.test(id)
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
          files: ['**/*.server.*', '**/app/server/**', '**/app/api/**', '**/app/db/**', '**/app/idp/**'],
        },
      },
    }),
    viteReact(),
  ],
})
