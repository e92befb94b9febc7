import { useRouteContext } from '@tanstack/react-router'

/** The public runtime settings loaded by the root route (site origin, title prefix, flags). */
export function useSite() {
  return useRouteContext({ from: '__root__', select: (c) => c.site })
}
