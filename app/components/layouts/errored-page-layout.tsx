import { Outlet, useRouterState } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { SimpleLayout } from './simple-layout'

/**
 * A layout route's chrome, unless a route of the page failed to load: spec §2 gives the error page the simple
 * layout, so the layout route shows it around the error instead of its own header and navigation.
 */
export function UnlessErrored({ children }: { children: ReactNode }) {
  const errored = useRouterState({ select: (s) => s.matches.some((m) => m.status === 'error') })
  if (!errored) return children
  return (
    <SimpleLayout>
      <Outlet />
    </SimpleLayout>
  )
}
