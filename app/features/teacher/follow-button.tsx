import { useQuery } from '@tanstack/react-query'
import { useLocation, useRouteContext } from '@tanstack/react-router'
import { useOptimisticToggle } from '~/components/shell/optimistic-toggle'
import { openLoginModal, showErrorSnackbar } from '~/components/shell/ui-store'
import { useViewer } from '~/components/shell/use-viewer'
import { Icon } from '~/components/ui/icon'
import type { FollowState } from '~/contract/v1/follows'
import { followStateQuery } from './queries'

const functions = () => import('./teacher.functions')
const prefetch = () => void functions().catch(() => undefined)

/** フォロー toggle with the follower count. A visitor gets the login modal, which comes back here. */
export function FollowButton({ teacherId, initialCount }: { teacherId: number; initialCount: number }) {
  const viewer = useViewer()
  const myId = useRouteContext({
    from: '__root__',
    select: (c) => (c.auth.status === 'authenticated' ? c.auth.user?.id : undefined),
  })
  const location = useLocation()
  const query = followStateQuery(teacherId)
  const { data: state } = useQuery({ ...query, enabled: viewer === 'member' })
  const toggle = useOptimisticToggle<FollowState | null>({
    queryKey: query.queryKey,
    apply: (s, on) =>
      s && {
        ...s,
        is_following: on,
        follower_count: Math.max(0, s.follower_count + (on === s.is_following ? 0 : on ? 1 : -1)),
      },
    // Imported on the first tap (fetched already when a pointer or focus comes to the button): first-load scripts
    // carry no server-function code (0008).
    send: (on) => functions().then((f) => f.setFollow({ data: { id: teacherId, on } })),
    messages: { on: 'フォローしました', off: 'フォローを解除しました' },
  })
  const on = Boolean(state?.is_following)
  const count = state?.follower_count ?? initialCount

  const onClick = () => {
    if (viewer === 'visitor') return openLoginModal(location.href)
    if (viewer === 'unregistered') return showErrorSnackbar('プロフィールを登録するとフォローできます')
    if (toggle.isPending) return
    toggle.mutate(!on)
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      {/* A teacher does not follow themselves (the API refuses with 422): their own page shows the count only. */}
      {myId === teacherId ? null : (
        <button
          type="button"
          className={
            on ? 'btn border-2 border-purple-dark bg-purple-dark/10 text-purple-dark' : 'btn-primary'
          }
          aria-pressed={viewer === 'member' ? on : undefined}
          aria-busy={toggle.isPending || undefined}
          data-testid="follow-button"
          onPointerEnter={prefetch}
          onFocus={prefetch}
          onClick={onClick}
        >
          <Icon name={on ? 'person-check' : 'person-add'} className="h-5 w-5" />
          {on ? 'フォロー中' : 'フォローする'}
        </button>
      )}
      <p className="text-sm text-slate-700">
        フォロワー{' '}
        <span className="font-bold" data-testid="follower-count">
          {count}
        </span>
        人
      </p>
    </div>
  )
}
