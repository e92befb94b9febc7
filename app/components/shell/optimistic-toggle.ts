import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query'
import { openLoginModal, showErrorSnackbar, showSnackbar } from './ui-store'

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

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * Follow/favorite style toggles: the cached state flips at once (optimistic), the server's answer replaces it,
 * a failure puts the previous state back and says why. An expired session opens the login modal.
 */
export function useOptimisticToggle<S>(options: {
  queryKey: QueryKey
  /** The optimistic state after turning it on or off. */
  apply: (state: S, on: boolean) => S
  send: (on: boolean) => Promise<ToggleResult<S>>
  messages: { on: string; off: string }
}) {
  const queryClient = useQueryClient()
  const { queryKey } = options
  return useMutation({
    mutationFn: async (on: boolean) => {
      const result = await options.send(on)
      if (!result.ok) throw new ToggleError(result.message, result.status)
      return result.state
    },
    onMutate: async (on) => {
      await queryClient.cancelQueries({ queryKey })
      const previous = queryClient.getQueryData<S>(queryKey)
      if (previous !== undefined) queryClient.setQueryData<S>(queryKey, options.apply(previous, on))
      return { previous }
    },
    onError: (error, _on, context) => {
      if (context?.previous !== undefined) queryClient.setQueryData(queryKey, context.previous)
      if (error instanceof ToggleError && error.status === 401) {
        openLoginModal(`${window.location.pathname}${window.location.search}`)
        return
      }
      showErrorSnackbar(
        escapeHtml(error.message || '処理できませんでした。時間をおいてもう一度お試しください。'),
      )
    },
    onSuccess: (state, on) => {
      queryClient.setQueryData(queryKey, state)
      showSnackbar({ message: on ? options.messages.on : options.messages.off })
    },
  })
}
