import { type ErrorComponentProps, useNavigate } from '@tanstack/react-router'
import { useEffect } from 'react'
import { appConfig } from '../../../app.config'
import { LazyErrorView } from './lazy-error-page'
import { showErrorSnackbar } from './ui-store'

/** The snackbar's text (spec §8: 'an error has occurred' plus the message). */
export function deepInfoFailureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message.trim() : ''
  return message ? `エラーが発生しました。${message}` : 'エラーが発生しました。'
}

/**
 * The error component of pages whose loader reads the member's deep info (/v1/users/deep_me: my page, profile):
 * spec §4 and §8 — when that read fails, an error snackbar, then the top page after 3 seconds. The error page is
 * shown meanwhile (in the simple layout, like every error page).
 */
export function DeepInfoFailure({ error }: ErrorComponentProps) {
  const navigate = useNavigate()
  useEffect(() => {
    showErrorSnackbar(deepInfoFailureMessage(error))
    const timer = setTimeout(
      () => void navigate({ to: '/', replace: true }),
      appConfig.timing.userInfoFailureRedirectDelay,
    )
    return () => clearTimeout(timer)
  }, [error, navigate])
  return <LazyErrorView error={error} />
}
