import { type ComponentProps, type ComponentType, lazy } from 'react'

/**
 * `React.lazy` for every part of the app whose code loads later in the browser (a section below the fold, a
 * dialog). In the browser it is `React.lazy` itself.
 *
 * On the server, the part's module is imported as soon as the module that declares it is, and the part renders
 * the loaded component directly: pages are rendered with `renderToString` (docs/decisions/0032), which cannot wait
 * for code, and a `React.lazy` met before its module arrived would leave the part out of the HTML for the browser
 * to render. The page handler awaits `lazyPartsLoaded()` before it renders, so even a server's first request for a
 * page renders the whole page.
 */
// biome-ignore lint/suspicious/noExplicitAny: the constraint React.lazy itself has
export function lazyPart<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): ComponentType<ComponentProps<T>> {
  const Lazy = lazy(load) as ComponentType<ComponentProps<T>>
  if (!import.meta.env.SSR) return Lazy
  let Loaded: ComponentType<ComponentProps<T>> | undefined
  track(
    load().then((module) => {
      Loaded = module.default
    }),
  )
  // biome-ignore lint/correctness/noComponentHookFactories: a factory, called once per part at module level
  return function LazyPart(props: ComponentProps<T>) {
    const Part = Loaded ?? Lazy
    return <Part {...props} />
  }
}

const loading = new Set<Promise<unknown>>()

function track(promise: Promise<unknown>) {
  // A failed import is left to React.lazy, which throws it where the part renders (the page's error boundary).
  const settled = promise.catch(() => {})
  loading.add(settled)
  void settled.then(() => loading.delete(settled))
}

/**
 * Settles once every part declared so far has loaded, including parts declared by the modules those loads
 * evaluated. Immediate once the server has loaded them all (every request after the first few).
 */
export async function lazyPartsLoaded(): Promise<void> {
  while (loading.size > 0) await Promise.all(loading)
}
