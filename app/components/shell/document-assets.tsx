import { Asset, useRouter, useRouterState, useTags } from '@tanstack/react-router'
import {
  _getAssetMatches,
  type AnyRouteMatch,
  composeSsrBodyScripts,
  deepEqual,
  getSsrBodyScriptParts,
  type RouterManagedTag,
  resolveManifestAssetLink,
  rootRouteId,
} from '@tanstack/router-core'
import { isServer } from '@tanstack/router-core/isServer'
import { useRef, useState } from 'react'
import { bootScript } from '~/lib/boot-script'

/**
 * TanStack Router's `HeadContent` and `Scripts`, except that the app's JavaScript starts at the first paint
 * (docs/decisions/0034): the head carries no module preloads, and the entry's `<script type="module">` becomes an
 * inline script that adds both then (bootScript). Everything else is rendered as the originals do. Built on
 * router-core's own helpers, some of them internal (`_getAssetMatches`, `router.stores`,
 * `takeInitialHydrationScriptTags`): check this file against `Scripts` and `HeadContent` on a TanStack upgrade.
 */

const isModulePreload = (tag: RouterManagedTag) => tag.tag === 'link' && tag.attrs?.rel === 'modulepreload'

/** The app's entry: the root route's module script in the manifest (another route's scripts stay as they are). */
function entrySrc(router: ReturnType<typeof useRouter>): string | undefined {
  const entry = router.ssr?.manifest?.routes[rootRouteId]?.scripts?.find(
    (s) => s.attrs?.type === 'module' && typeof s.attrs?.src === 'string',
  )
  return entry?.attrs?.src as string | undefined
}

export function DocumentHead() {
  const nonce = useRouter().options.ssr?.nonce
  const tags = useTags().filter((tag) => !isModulePreload(tag))
  return tags.map((tag) => <Asset {...tag} key={`tsr-meta-${JSON.stringify(tag)}`} nonce={nonce} />)
}

export function DocumentScripts() {
  const router = useRouter()
  return (isServer ?? router.isServer) ? <ServerScripts /> : <ClientScripts />
}

function scriptParts(router: ReturnType<typeof useRouter>, matches: AnyRouteMatch[]) {
  const nonce = router.options.ssr?.nonce
  const parts = getSsrBodyScriptParts(matches, router.ssr?.manifest, nonce, {
    suppressHydrationWarning: true,
  })
  // As `Scripts` does: a manifest script with a src stays where it is written (React 19 would hoist an async one).
  for (const script of parts[1])
    if (typeof script.attrs?.src === 'string')
      (script as { preventScriptHoist?: boolean }).preventScriptHoist = true
  return parts
}

/** The server takes the dehydration scripts once; they surround the page's own scripts. */
function ServerScripts() {
  const router = useRouter()
  const scripts = composeSsrBodyScripts(
    scriptParts(router, router.stores.matches.get()),
    router.serverSsr?.takeInitialHydrationScriptTags(),
  )
  const entry = entrySrc(router)
  return (
    <BodyScripts
      scripts={scripts}
      entry={entry}
      boot={entry ? bootScript(entry, pagePreloads(router)) : undefined}
    />
  )
}

/** The client renders what the server did for the matches it hydrates, as `Scripts` does. */
function ClientScripts() {
  const router = useRouter()
  const selected = useRouterState({ select: (s) => composeSsrBodyScripts(scriptParts(router, s.matches)) })
  // The tags' objects are kept while they are equal, as `Scripts`' deep compare does: `Asset`'s effect for a
  // route's script runs again (and adds the script to the page again) whenever its attrs object changes.
  const kept = useRef(selected)
  if (kept.current !== selected && !deepEqual(kept.current, selected)) kept.current = selected
  // The entry as the server saw it: later routes' chunks are the router's business, not the boot script's.
  const [entry] = useState(() => entrySrc(router))
  return <BodyScripts scripts={kept.current} entry={entry} />
}

/**
 * The module preloads `useTags` would put in the head, read from the manifest as it reads them (the matches whose
 * assets count, `_getAssetMatches`): building all the head's tags a second time cost ~1 % of a page's render.
 */
function pagePreloads(router: ReturnType<typeof useRouter>): string[] {
  const manifest = router.ssr?.manifest
  const hrefs = new Set<string>()
  for (const match of _getAssetMatches(router.stores.matches.get()))
    for (const link of manifest?.routes[match.routeId]?.preloads ?? [])
      hrefs.add(resolveManifestAssetLink(link).href)
  return [...hrefs]
}

/**
 * The client hydrates the boot script the server sent and never renders its text: the script ran once, and
 * React 19 neither compares nor writes `dangerouslySetInnerHTML` when it hydrates (in development the comparison is
 * skipped under `suppressHydrationWarning`), and writes it later only when `__html` changes, which on the client
 * it never does. So `bootScript` and `pagePreloads` stay out of the browser's bundle (`isServer` is `false` there),
 * which the first-load budget needs (0008, 0034).
 */
const HYDRATED_BOOT = { __html: '' }

function BodyScripts({
  scripts,
  entry,
  boot,
}: {
  scripts: RouterManagedTag[]
  entry: string | undefined
  /** The boot script's text, on the server only. */
  boot?: string
}) {
  const nonce = useRouter().options.ssr?.nonce
  const isEntry = (tag: RouterManagedTag) =>
    tag.tag === 'script' && entry !== undefined && tag.attrs?.src === entry
  return scripts.map((tag, i) =>
    isEntry(tag) ? (
      <script
        key="app-boot"
        nonce={nonce}
        suppressHydrationWarning
        // The build's own asset URLs, JSON-escaped (bootScript).
        dangerouslySetInnerHTML={boot === undefined ? HYDRATED_BOOT : { __html: boot }}
      />
    ) : (
      <Asset {...tag} key={`tsr-scripts-${tag.tag}-${i}`} />
    ),
  )
}
