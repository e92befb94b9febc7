import { Link, useLocation } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { LOGOUT_HREF, loginHref } from '~/lib/auth-links'
import { useAuth } from './use-auth'

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
        <div
          role="menu"
          className="absolute right-0 z-50 mt-2 w-64 rounded-xl border border-slate-200 bg-white p-2 shadow-lg"
          data-testid="account-menu"
        >
          <p className="truncate px-3 py-2 text-sm font-bold">{name} さん</p>
          <div className="border-t border-slate-200 pt-1">
            {auth.user ? (
              <>
                <Link to="/mypage" role="menuitem" className={menuItem} data-testid="menu-mypage">
                  マイページ
                </Link>
                <Link to="/information" role="menuitem" className={menuItem} data-testid="menu-information">
                  お知らせ
                  <CountBadge count={auth.counts.announcements} testId="announcements-count" />
                </Link>
                <Link to="/message" role="menuitem" className={menuItem} data-testid="menu-message">
                  メッセージ
                  <CountBadge count={auth.counts.messages} testId="messages-count" />
                </Link>
                <Link
                  to="/class_attendance"
                  role="menuitem"
                  className={menuItem}
                  data-testid="menu-attendance"
                >
                  受講クラス
                </Link>
                <Link to="/follow" role="menuitem" className={menuItem} data-testid="menu-follow">
                  フォロー・お気に入り
                </Link>
                <Link to="/profile" role="menuitem" className={menuItem}>
                  基本情報
                </Link>
              </>
            ) : null}
            {auth.user?.is_teacher ? (
              <>
                <Link
                  to="/class_management"
                  search={{ tab: 'published' }}
                  role="menuitem"
                  className="block rounded-lg px-3 py-2 text-sm hover:bg-light-grey"
                  data-testid="menu-class-management"
                >
                  クラス管理
                </Link>
                <Link
                  to="/sales_management"
                  search={{ tab: 'sales' }}
                  role="menuitem"
                  className="block rounded-lg px-3 py-2 text-sm hover:bg-light-grey"
                  data-testid="menu-sales-management"
                >
                  売上管理
                </Link>
                <Link
                  to="/organization_management"
                  search={{}}
                  role="menuitem"
                  className="block rounded-lg px-3 py-2 text-sm hover:bg-light-grey"
                  data-testid="menu-organization-management"
                >
                  団体管理
                </Link>
              </>
            ) : null}
            <a
              href={LOGOUT_HREF}
              role="menuitem"
              className="block rounded-lg px-3 py-2 text-sm hover:bg-light-grey"
              data-testid="logout"
            >
              ログアウト
            </a>
          </div>
        </div>
      ) : null}
    </div>
  )
}

const menuItem = 'flex items-center justify-between rounded-lg px-3 py-2 text-sm hover:bg-light-grey'

/** An unread count in the account menu (read out as 未読3件). */
function CountBadge({ count, testId }: { count: number; testId: string }) {
  return (
    <span
      className={`min-w-6 rounded-full px-1.5 text-center text-xs leading-5 font-bold ${
        count > 0 ? 'bg-red-dark text-white' : 'bg-light-grey text-slate-700'
      }`}
      data-testid={testId}
    >
      <span className="sr-only">未読</span>
      {count > 99 ? '99+' : count}
      <span className="sr-only">件</span>
    </span>
  )
}
