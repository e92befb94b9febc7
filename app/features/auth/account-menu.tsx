import { Link } from '@tanstack/react-router'
import { LOGOUT_HREF } from '~/lib/auth-links'
import { useAuth } from './use-auth'

/** The account menu's dropdown (loaded on first open by AccountControls). */
export function AccountMenuItems({ name }: { name: string }) {
  const auth = useAuth()
  if (auth.status !== 'authenticated') return null
  return (
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
            <Link to="/class_attendance" role="menuitem" className={menuItem} data-testid="menu-attendance">
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
              className={plainItem}
              data-testid="menu-class-management"
            >
              クラス管理
            </Link>
            <Link
              to="/sales_management"
              search={{ tab: 'sales' }}
              role="menuitem"
              className={plainItem}
              data-testid="menu-sales-management"
            >
              売上管理
            </Link>
            <Link
              to="/organization_management"
              search={{}}
              role="menuitem"
              className={plainItem}
              data-testid="menu-organization-management"
            >
              団体管理
            </Link>
          </>
        ) : null}
        {auth.user?.is_operator ? (
          <Link to="/admin" role="menuitem" className={plainItem} data-testid="menu-admin">
            運営管理
          </Link>
        ) : null}
        {/* A POST (CSRF-checked): a link or a prefetch must never sign anyone out. */}
        <form method="post" action={LOGOUT_HREF}>
          <button
            type="submit"
            role="menuitem"
            className={`${plainItem} w-full text-left`}
            data-testid="logout"
          >
            ログアウト
          </button>
        </form>
      </div>
    </div>
  )
}

const menuItem = 'flex items-center justify-between rounded-lg px-3 py-2 text-sm hover:bg-light-grey'
const plainItem = 'block rounded-lg px-3 py-2 text-sm hover:bg-light-grey'

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
