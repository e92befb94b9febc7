import { useCallback, useRef, useState } from 'react'

/**
 * A button's action, one at a time: `run` does nothing while the last run is in flight, and `isPending` says so
 * (to disable the button). The action handles its own outcome (snackbars, cache updates); what it throws is
 * passed to `onError`.
 *
 * Used instead of useMutation where nothing else of it is needed (its cache, retries, observers), so that the
 * mutation hooks stay out of the first load of the pages that show such buttons (docs/decisions/0008).
 */
export function useAction<A extends unknown[]>(
  action: (...args: A) => Promise<unknown>,
  onError?: (error: unknown) => void,
): { run: (...args: A) => void; isPending: boolean } {
  const [isPending, setPending] = useState(false)
  const inFlight = useRef(false)
  const latest = useRef({ action, onError })
  latest.current = { action, onError }
  const run = useCallback((...args: A) => {
    if (inFlight.current) return
    inFlight.current = true
    setPending(true)
    const { action, onError } = latest.current
    action(...args)
      .catch((error: unknown) => onError?.(error))
      .finally(() => {
        inFlight.current = false
        setPending(false)
      })
  }, [])
  return { run, isPending }
}
