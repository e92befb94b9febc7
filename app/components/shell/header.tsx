import { Link } from '@tanstack/react-router'
import { Icon } from '../ui/icon'
import { HeaderSearch } from './header-search'
import { Logo } from './logo'
import { setMenuOpen } from './ui-store'

/** `phones`: shown on phones too (the simple layout's header has room for it; the main header has not). */
export function DemoBadge({ phones = false }: { phones?: boolean }) {
  return (
    <span
      // With Japanese fonts a phone's header (search, ふりがな, ログイン, 新規登録, menu) fills 360 px on its own: the
      // badge moves into the hamburger menu there.
      className={`rounded-full bg-yellow px-2 py-0.5 text-xs font-bold whitespace-nowrap text-slate-900 ${phones ? '' : 'max-sm:hidden'}`}
      title="デモ用の認証プロバイダーで動いています"
      data-testid="demo-badge"
    >
      デモ環境
    </span>
  )
}

/** Site header (spec §2 "App shell"): logo, keyword search, account controls (from the layout), menu button. */
export function Header({ demo, children }: { demo: boolean; children?: React.ReactNode }) {
  return (
    <header
      id="site-header"
      className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur"
      data-testid="site-header"
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-3 sm:gap-3 sm:px-4">
        <Link to="/" className="shrink-0" aria-label="まなびのたね トップページ">
          <Logo compact />
        </Link>
        {demo ? <DemoBadge /> : null}
        <div className="flex flex-1 items-center justify-end gap-1 sm:gap-2">
          <HeaderSearch />
          {children}
        </div>
        <button
          type="button"
          className="rounded-full p-2 text-slate-700 hover:bg-light-grey"
          aria-label="メニューを開く"
          aria-haspopup="dialog"
          data-testid="menu-button"
          onClick={() => setMenuOpen(true)}
        >
          <Icon name="menu" />
        </button>
      </div>
    </header>
  )
}
