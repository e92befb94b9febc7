/// <reference types="vite/client" />
import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, Outlet, useRouter, useRouterState } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { SimpleLayout } from '~/components/layouts/simple-layout'
import { AppLoad } from '~/components/shell/app-load'
import { DocumentHead, DocumentScripts } from '~/components/shell/document-assets'
import { ERROR_TITLE, NOT_FOUND_TITLE } from '~/components/shell/error-titles'
import { LazyErrorView, LazyNotFoundView } from '~/components/shell/lazy-error-page'
import { LazyOverlays } from '~/components/shell/lazy-overlays'
import { LoadingOverlay } from '~/components/shell/loading-overlay'
import { ShellEffects } from '~/components/shell/shell-effects'
import { FuriganaScope } from '~/components/ui/ruby'
import { AuthEffects } from '~/features/auth/auth-effects'
import { authStateQuery } from '~/features/auth/queries'
import { fixedFuriganaQuery } from '~/features/furigana/queries'
import { siteConfigQuery } from '~/features/site/queries'
import { isTabletUserAgent } from '~/lib/breakpoints'
import { canonicalPath, routeBodyClass } from '~/lib/page-title'
import { plainTitle, seo } from '~/lib/seo'
import { appConfig } from '../../app.config'
import appCss from '../styles.css?url'

export type RouterContext = { queryClient: QueryClient }

// Tablets get a fixed-width viewport (spec §9). It must run before first layout, so it is inline.
const viewportScript = `(function(){var u=navigator.userAgent,t=/iPad/i.test(u)||(/Android/i.test(u)&&!/Mobile/i.test(u))||(/Macintosh/i.test(u)&&navigator.maxTouchPoints>1);if(t){var m=document.querySelector('meta[name=viewport]');if(m)m.setAttribute('content','width=${appConfig.tabletViewportWidth}');}})();`

const DEVICE_VIEWPORT = 'width=device-width, initial-scale=1, viewport-fit=cover'

/** Matches what viewportScript did to the server's tag, so that hydration keeps it. */
function viewportContent() {
  if (typeof navigator === 'undefined') return DEVICE_VIEWPORT
  return isTabletUserAgent(navigator.userAgent, navigator.maxTouchPoints)
    ? `width=${appConfig.tabletViewportWidth}`
    : DEVICE_VIEWPORT
}

export const Route = createRootRouteWithContext<RouterContext>()({
  beforeLoad: async ({ context }) => {
    const [site, auth] = await Promise.all([
      context.queryClient.ensureQueryData(siteConfigQuery()),
      context.queryClient.ensureQueryData({ ...authStateQuery(), revalidateIfStale: true }),
    ])
    // Furigana mode (issue 19): the readings of the site's fixed texts, only for those who turned it on.
    const fixedFurigana = auth.furigana
      ? await context.queryClient.ensureQueryData(fixedFuriganaQuery()).catch(() => undefined)
      : undefined
    return { site, auth, fixedFurigana }
  },
  head: ({ matches }) => {
    const site = matches[0]?.context.site
    const leaf = matches[matches.length - 1]
    const notFound = matches.some((m) => m.status === 'notFound' || m._notFound)
    const errored = !notFound && matches.some((m) => m.status === 'error')
    const origin = site?.siteOrigin ?? ''
    const meta = [
      { charSet: 'utf-8' },
      { name: 'viewport', content: viewportContent() },
      { name: 'theme-color', content: appConfig.theme.base },
      ...seo({ siteOrigin: origin, titlePrefix: site?.titlePrefix ?? '' }),
    ]
    // Canonical and og:url name the page's own address: no trailing slash (an index route's pathname has one, and
    // that address redirects), and none at all on a 404 or error page, which is not indexed.
    const canonical = notFound || errored ? undefined : `${origin}${canonicalPath(leaf?.pathname)}`
    if (canonical) meta.push({ property: 'og:url', content: canonical })
    if (notFound || errored) {
      meta.push(
        { title: plainTitle(site, notFound ? NOT_FOUND_TITLE : ERROR_TITLE) },
        { name: 'robots', content: 'noindex' },
      )
    }
    return {
      meta,
      links: [
        { rel: 'stylesheet', href: appCss },
        ...(canonical ? [{ rel: 'canonical', href: canonical }] : []),
        { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
        { rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
      ],
    }
  },
  shellComponent: RootDocument,
  component: Outlet,
  notFoundComponent: () => (
    <SimpleLayout>
      <LazyNotFoundView />
    </SimpleLayout>
  ),
  errorComponent: ({ error }) => (
    <SimpleLayout>
      <LazyErrorView error={error} />
    </SimpleLayout>
  ),
})

function RootDocument({ children }: { children: ReactNode }) {
  const nonce = useRouter().options.ssr?.nonce
  const furigana = Route.useRouteContext({ select: (c) => c.auth?.furigana === true })
  const fixedFurigana = Route.useRouteContext({ select: (c) => c.fixedFurigana })
  // The body is named after the route (spec §2), and a 404 after itself: not after the home page it falls back to.
  const bodyClass = useRouterState({
    select: (s) =>
      s.matches.some((m) => m.status === 'notFound' || m._notFound)
        ? 'page-not-found'
        : routeBodyClass(s.matches[s.matches.length - 1]?.routeId ?? '__root__'),
  })
  return (
    <html lang="ja">
      <head>
        <DocumentHead />
        {/* Rendered here, not as a route script: TanStack's route scripts are added to the page again on every
            client navigation, and this one has nothing to do after the first layout. */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: viewportScript }} />
      </head>
      <body className={furigana ? `${bodyClass} furigana` : bodyClass}>
        <FuriganaScope on={furigana} texts={fixedFurigana}>
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[80] focus:rounded focus:bg-white focus:px-3 focus:py-2"
          >
            本文へスキップ
          </a>
          {children}
          <LazyOverlays />
          <LoadingOverlay />
          <ShellEffects />
          <AppLoad />
          <AuthEffects />
        </FuriganaScope>
        <DocumentScripts />
      </body>
    </html>
  )
}
