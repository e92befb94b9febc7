import { useQuery } from '@tanstack/react-query'
import { useLocation } from '@tanstack/react-router'
import { useOptimisticToggle } from '~/components/shell/optimistic-toggle'
import { openLoginModal, showErrorSnackbar } from '~/components/shell/ui-store'
import { useViewer } from '~/components/shell/use-viewer'
import { Icon } from '~/components/ui/icon'
import type { FavoriteState } from '~/contract/v1/follows'
import { favoriteStateQuery, functions } from './queries'

const prefetch = () => void functions().catch(() => undefined)

/** お気に入り toggle. A visitor gets the login modal, which comes back to this page after signing in. */
export function FavoriteButton({ classWorkId, initialCount }: { classWorkId: number; initialCount: number }) {
  const viewer = useViewer()
  const location = useLocation()
  const query = favoriteStateQuery(classWorkId)
  const { data: state } = useQuery({ ...query, enabled: viewer === 'member' })
  const toggle = useOptimisticToggle<FavoriteState | null>({
    queryKey: query.queryKey,
    apply: (s, on) =>
      s && {
        ...s,
        is_favorite: on,
        favorite_count: Math.max(0, s.favorite_count + (on === s.is_favorite ? 0 : on ? 1 : -1)),
      },
    // Imported on the first tap (fetched already when a pointer or focus comes to the button): first-load scripts
    // carry no server-function code (0008).
    send: (on) => functions().then((f) => f.setFavorite({ data: { id: classWorkId, on } })),
    messages: { on: 'お気に入りに追加しました', off: 'お気に入りから外しました' },
  })
  const on = Boolean(state?.is_favorite)
  const count = state?.favorite_count ?? initialCount

  const onClick = () => {
    if (viewer === 'visitor') return openLoginModal(location.href)
    if (viewer === 'unregistered') return showErrorSnackbar('プロフィールを登録するとお気に入りを使えます')
    if (toggle.isPending) return
    toggle.mutate(!on)
  }

  return (
    <button
      type="button"
      className={on ? 'btn border-2 border-red-dark bg-white text-red-dark hover:bg-red/10' : 'btn-outline'}
      aria-pressed={viewer === 'member' ? on : undefined}
      aria-busy={toggle.isPending || undefined}
      data-testid="favorite-button"
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onClick={onClick}
    >
      <Icon name={on ? 'heart' : 'heart-outline'} className="h-5 w-5" />
      {on ? 'お気に入り済み' : 'お気に入りに追加'}
      <span className="text-xs font-normal" data-testid="favorite-count">
        （{count}）
      </span>
    </button>
  )
}
