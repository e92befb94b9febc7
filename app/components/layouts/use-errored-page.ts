import { useRouterState } from '@tanstack/react-router'

/**
 * Whether a route of the page failed to load (spec §2: the error page has the simple layout). The page's own
 * layout route asks, and shows the simple layout around the error instead of its header and navigation.
 */
export function useErroredPage(): boolean {
  return useRouterState({ select: (s) => s.matches.some((m) => m.status === 'error') })
}
