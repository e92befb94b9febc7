import { useSelector } from '@tanstack/react-store'
import { Suspense } from 'react'
import { lazyPart } from '~/components/shell/lazy-part'
import { useOnceOpened } from '../ui/use-once-opened'
import { uiStore } from './ui-store'

// Radix Dialog/Toast and DOMPurify are not needed to paint a page, so they load the first time the
// menu, the login modal or a snackbar opens. This keeps them out of the first-load bundle (issue budget).
const HamburgerMenu = lazyPart(() => import('./hamburger-menu').then((m) => ({ default: m.HamburgerMenu })))
const LoginModal = lazyPart(() => import('./login-modal').then((m) => ({ default: m.LoginModal })))
const Snackbar = lazyPart(() => import('./snackbar').then((m) => ({ default: m.Snackbar })))

export function LazyOverlays() {
  const menuOpen = useSelector(uiStore, (s) => s.menuOpen)
  const loginOpen = useSelector(uiStore, (s) => s.loginModalOpen)
  const snackbarShown = useSelector(uiStore, (s) => s.snackbar.show)
  const menu = useOnceOpened(menuOpen)
  const login = useOnceOpened(loginOpen)
  const snackbar = useOnceOpened(snackbarShown)
  return (
    <Suspense fallback={null}>
      {menu ? <HamburgerMenu /> : null}
      {login ? <LoginModal /> : null}
      {snackbar ? <Snackbar /> : null}
    </Suspense>
  )
}
