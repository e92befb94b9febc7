import { useLocation } from '@tanstack/react-router'
import { Suspense, useEffect, useRef, useState } from 'react'
import { lazyPart } from '~/components/shell/lazy-part'
import { loginHref } from '~/lib/auth-links'
import { useAuth } from './use-auth'

// The header ships with every page (0008); the menu's links load the first time a member opens it.
const AccountMenuItems = lazyPart(() =>
  import('./account-menu').then((m) => ({ default: m.AccountMenuItems })),
)

/** Header account controls: sign-in and sign-up when signed out; avatar, unread badges and logout when signed in. */
export function AccountControls() {
  const auth = useAuth()
  const location = useLocation()
  if (auth.status !== 'authenticated') {
    return (
      <div className="flex items-center gap-1 sm:gap-2">
        <a
          href={loginHref(location.href)}
          className="btn-ghost px-2 py-2 whitespace-nowrap max-sm:text-xs sm:px-3"
          data-testid="header-login"
        >
          ログイン
        </a>
        <a
          href={loginHref(location.href, { signup: true })}
          className="btn-primary px-3 py-2 whitespace-nowrap max-sm:text-xs"
          data-testid="header-signup"
        >
          新規登録
        </a>
      </div>
    )
  }
  return <AccountMenu />
}

function AccountMenu() {
  const auth = useAuth()
  const [open, setOpen] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  const location = useLocation()

  // Close on navigation, outside click and Escape.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the point of depending on the path
  useEffect(() => setOpen(false), [location.pathname])
  useEffect(() => {
    if (!open) return
    const onDown = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false)
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false)
    }
    document.addEventListener('pointerdown', onDown)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onDown)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  if (auth.status !== 'authenticated') return null
  const name = auth.user?.nickname ?? auth.identity.name ?? auth.identity.email ?? 'ゲスト'
  const avatar = auth.user?.avatar_url ?? undefined
  const unread = auth.counts.announcements + auth.counts.messages
  return (
    <div className="relative" ref={ref}>
      <button
        type="button"
        className="relative flex items-center gap-2 rounded-full p-1 hover:bg-light-grey"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`アカウントメニュー（${name}）${unread ? `、未読${unread}件` : ''}`}
        data-testid="account-button"
        onClick={() => setOpen((v) => !v)}
      >
        {avatar ? (
          <img src={avatar} alt="" width={36} height={36} className="h-9 w-9 rounded-full object-cover" />
        ) : (
          <span className="flex h-9 w-9 items-center justify-center rounded-full bg-purple-dark font-bold text-white">
            {name.slice(0, 1)}
          </span>
        )}
        {unread > 0 ? (
          <span
            className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-dark px-1 text-center text-[11px] leading-5 font-bold text-white"
            data-testid="unread-badge"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <AccountMenuItems name={name} />
        </Suspense>
      ) : null}
    </div>
  )
}
