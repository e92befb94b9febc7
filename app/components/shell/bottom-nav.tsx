import { Link, useLocation } from '@tanstack/react-router'
import { Icon } from '../ui/icon'
import { setMenuOpen } from './ui-store'

/** Paths where the bottom navigation is hidden (spec §2: teacher introduction). */
export function hidesBottomNav(pathname: string) {
  return pathname.startsWith('/teacher/detail/')
}

/** Bottom navigation for phones and tablets (below lg). */
export function BottomNav() {
  const { pathname } = useLocation()
  if (hidesBottomNav(pathname)) return null
  const item = 'flex flex-1 flex-col items-center gap-0.5 py-2 text-[11px] font-bold text-slate-700'
  return (
    <nav
      aria-label="ボトムナビゲーション"
      data-testid="bottom-nav"
      className="fixed inset-x-0 bottom-0 z-40 flex border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)] lg:hidden"
    >
      <Link
        to="/"
        className={item}
        activeProps={{ className: 'text-purple-dark' }}
        activeOptions={{ exact: true }}
      >
        <Icon name="home" />
        ホーム
      </Link>
      <Link to="/class_search" className={item} activeProps={{ className: 'text-purple-dark' }}>
        <Icon name="search" />
        クラスを探す
      </Link>
      <Link to="/magazine" className={item} activeProps={{ className: 'text-purple-dark' }}>
        <Icon name="article" />
        マガジン
      </Link>
      <Link to="/mypage" className={item} activeProps={{ className: 'text-purple-dark' }}>
        <Icon name="person-check" />
        マイページ
      </Link>
      <button type="button" className={item} onClick={() => setMenuOpen(true)}>
        <Icon name="menu" />
        メニュー
      </button>
    </nav>
  )
}
