import { Suspense } from 'react'
import { lazyPart } from '~/components/shell/lazy-part'

// A page an operator took down is rare, so its view loads only when one is shown, not with every class and
// teacher page (0008). It waits in its own Suspense boundary: on hydration React keeps the server's HTML there
// until the code has arrived.
const GonePage = lazyPart(() => import('./gone-page').then((m) => ({ default: m.GonePage })))

export function LazyGonePage({ message }: { message: string }) {
  return (
    <Suspense fallback={null}>
      <GonePage message={message} />
    </Suspense>
  )
}
