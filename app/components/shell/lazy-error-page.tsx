import type { ErrorComponentProps } from '@tanstack/react-router'
import { Suspense } from 'react'
import { lazyPart } from '~/components/shell/lazy-part'

// Error pages are rare, so their views load only when one is shown, not with every page (0008). Each waits in
// its own Suspense boundary: on hydration React keeps the server's HTML there until the code has arrived.
const views = () => import('./error-page')
const NotFoundView = lazyPart(() => views().then((m) => ({ default: m.NotFoundView })))
const ErrorView = lazyPart(() => views().then((m) => ({ default: m.ErrorView })))

export function LazyNotFoundView() {
  return (
    <Suspense fallback={null}>
      <NotFoundView />
    </Suspense>
  )
}

export function LazyErrorView({ error }: { error: unknown }) {
  return (
    <Suspense fallback={null}>
      <ErrorView error={error} />
    </Suspense>
  )
}

/** The router's default error component (errors inside a layout). */
export function ErrorPage({ error }: ErrorComponentProps) {
  return <LazyErrorView error={error} />
}
