import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'

/**
 * Live updates while `enabled` (a signed-in member with a profile): header badges, the open message room, My Page
 * and the other lists refetch when the server says they changed (GET /events). Used once, in the root's
 * AuthEffects, so that the stream outlives navigations between layouts. The connection code loads after the
 * page has hydrated, outside the first-load bundle. `<html data-live>` shows the state: connecting, open, paused
 * (a hidden tab), closed (tests, debugging).
 */
export function useLiveUpdates(enabled: boolean) {
  const queryClient = useQueryClient()
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return
    const root = document.documentElement
    let stop: (() => void) | undefined
    let cancelled = false
    // A chunk that no longer exists (new deploy) rejects unhandled: ShellEffects reloads the page.
    void import('./live-updates').then(({ connectLiveUpdates }) => {
      if (cancelled) return
      stop = connectLiveUpdates(queryClient, {
        onStatus: (status) => {
          root.dataset.live = status
        },
      })
    })
    return () => {
      cancelled = true
      stop?.()
      delete root.dataset.live
    }
  }, [enabled, queryClient])
}
