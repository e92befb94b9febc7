import { useQuery } from '@tanstack/react-query'
import { useLocation } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { useLiveUpdates } from '~/components/shell/use-live-updates'
import { escapeHtml } from '~/lib/escape-html'
import { authStateQuery } from './queries'

/**
 * Browser side of the auth state (spec §4, §8): login errors as snackbars, silent renewal, and live updates for a
 * signed-in member (header badges, messages, My Page). Renders nothing.
 */
export function AuthEffects() {
  const { data: auth } = useQuery(authStateQuery())
  const location = useLocation()
  const shown = useRef<string | undefined>(undefined)
  useLiveUpdates(auth?.status === 'authenticated' && auth.user !== null)

  useEffect(() => {
    if (!auth) return
    const key = JSON.stringify([auth.flash, auth.status === 'authenticated' ? auth.meError : undefined])
    if (key === shown.current) return
    shown.current = key
    if (auth.flash) {
      const detail = auth.flash.detail ? `<br><small>${escapeHtml(auth.flash.detail)}</small>` : ''
      if (auth.flash.type === 'error')
        showErrorSnackbar({ html: `${escapeHtml(auth.flash.message)}${detail}` })
      else showSnackbar({ message: auth.flash.message })
    }
    if (auth.status === 'authenticated' && auth.meError) {
      // 'ログインできませんでした' + status + server message (spec §8).
      showErrorSnackbar(
        `ログインできませんでした（${auth.meError.status}）${auth.meError.message ? ` ${auth.meError.message}` : ''}`,
      )
    }
  }, [auth])

  useEffect(() => {
    if (auth?.status === 'authenticated' && auth.needsSilentRenewal) {
      // No refresh token: renew with a top-level prompt=none round trip (the tokens stay on the server).
      const params = new URLSearchParams({ prompt: 'none', returnTo: location.href })
      window.location.assign(`/auth/login?${params}`)
    }
  }, [auth, location.href])

  return null
}
