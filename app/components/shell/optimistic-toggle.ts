import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query'
import { openLoginModal, showErrorSnackbar, showSnackbar } from './ui-store'
import { useAction } from './use-action'

/** What a toggle's server function answers: the new state, or why it could not change it. */
export type ToggleResult<S> = { ok: true; state: S } | { ok: false; status: number; message: string }

class ToggleError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
  }
}

type ToggleOptions<S> = {
  queryKey: QueryKey
  /** The optimistic state after turning it on or off. */
  apply: (state: S, on: boolean) => S
  send: (on: boolean) => Promise<ToggleResult<S>>
  messages: { on: string; off: string }
}

/**
 * Follow/favorite toggles: the cached state flips at once (optimistic), the server's answer replaces it,
 * a failure puts the previous state back and says why. An expired session opens the login modal. One change at a
 * time: `mutate` does nothing while one is in flight.
 *
 * Not built on useMutation (see useAction): the mutation hooks stay out of the first load of the class and teacher
 * pages.
 */
export function useOptimisticToggle<S>(options: ToggleOptions<S>): {
  mutate: (on: boolean) => void
  isPending: boolean
} {
  const queryClient = useQueryClient()
  const { run, isPending } = useAction((on: boolean) => toggleOnce(queryClient, options, on))
  return { mutate: run, isPending }
}

/** One change of a toggle, outside React (so that it can be tested without a DOM). */
export async function toggleOnce<S>(
  queryClient: QueryClient,
  { queryKey, apply, send, messages }: ToggleOptions<S>,
  on: boolean,
): Promise<void> {
  await queryClient.cancelQueries({ queryKey })
  const previous = queryClient.getQueryData<S>(queryKey)
  if (previous !== undefined) queryClient.setQueryData<S>(queryKey, apply(previous, on))
  try {
    const result = await send(on)
    if (!result.ok) throw new ToggleError(result.message, result.status)
    queryClient.setQueryData(queryKey, result.state)
    // /follow and /mypage list and count what these toggles change: shown fresh when going back there.
    for (const list of ['follow', 'mypage']) void queryClient.invalidateQueries({ queryKey: [list] })
    showSnackbar({ message: on ? messages.on : messages.off })
  } catch (error) {
    if (previous !== undefined) queryClient.setQueryData(queryKey, previous)
    if (error instanceof ToggleError && error.status === 401) {
      openLoginModal(`${window.location.pathname}${window.location.search}`)
      return
    }
    const message = error instanceof Error ? error.message : ''
    showErrorSnackbar(message || '処理できませんでした。時間をおいてもう一度お試しください。')
  }
}
