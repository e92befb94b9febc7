import { useRouteContext } from '@tanstack/react-router'

/** Who is looking: a visitor (signed out), a signed-in person without a profile yet, or a registered member. */
export type Viewer = 'visitor' | 'unregistered' | 'member'

/** The viewer, from the auth state the root route loaded for this navigation. */
export function useViewer(): Viewer {
  return useRouteContext({
    from: '__root__',
    select: (c) => (c.auth.status !== 'authenticated' ? 'visitor' : c.auth.user ? 'member' : 'unregistered'),
  })
}
