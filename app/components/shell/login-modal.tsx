import { useLocation, useNavigate } from '@tanstack/react-router'
import { useSelector } from '@tanstack/react-store'
import { Modal } from '../ui/modal'
import { closeLoginModal, uiStore } from './ui-store'

/** The path the sign-in redirect starts from; the server accepts same-origin paths only. */
export function loginHref(returnTo: string, opts: { signup?: boolean } = {}) {
  const params = new URLSearchParams({ returnTo })
  if (opts.signup) params.set('screen_hint', 'signup')
  return `/auth/login?${params.toString()}`
}

/** Login modal (spec §2): cannot be closed by clicking outside. */
export function LoginModal() {
  const { loginModalOpen, loginReturnTo } = useSelector(
    uiStore,
    (s) => ({
      loginModalOpen: s.loginModalOpen,
      loginReturnTo: s.loginReturnTo,
    }),
    { compare: (a, b) => a.loginModalOpen === b.loginModalOpen && a.loginReturnTo === b.loginReturnTo },
  )
  const location = useLocation()
  const navigate = useNavigate()
  return (
    <Modal
      open={loginModalOpen}
      onOpenChange={(open) => {
        if (!open) closeLoginModal()
      }}
      dismissible={false}
      testId="login-modal"
      title="ログイン"
      message="ログインしてください"
      buttons={[
        {
          text: '今はしない',
          color: 'outline',
          onClick: () => {
            closeLoginModal()
            void navigate({ to: '/' })
          },
        },
        {
          text: 'ログイン',
          color: 'primary',
          onClick: () => {
            window.location.assign(loginHref(loginReturnTo ?? location.href))
          },
        },
      ]}
    />
  )
}
