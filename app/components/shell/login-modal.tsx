import { useLocation, useNavigate } from '@tanstack/react-router'
import { useSelector } from '@tanstack/react-store'
import { loginHref } from '~/lib/auth-links'
// This file is itself loaded on demand (lazy-overlays), so it takes the dialog directly, not the lazy Modal.
import { ModalDialog as Modal } from '../ui/modal-dialog'
import { closeLoginModal, uiStore } from './ui-store'

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
