import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useLocation, useRouteContext } from '@tanstack/react-router'
import { Suspense, useState } from 'react'
import { lazyPart } from '~/components/shell/lazy-part'
import { openLoginModal, showErrorSnackbar } from '~/components/shell/ui-store'
import { useViewer } from '~/components/shell/use-viewer'
import { useOnceOpened } from '~/components/ui/use-once-opened'
import type { MyClassRequest } from '~/contract/v1/requests'
import { myClassRequestQuery } from './queries'

// The form and its call are only reachable from the button: they load on the first press (0008).
const RequestForm = lazyPart(() => import('./request-form').then((m) => ({ default: m.RequestForm })))

/**
 * 「リクエスト開催」 (issue 16) under a class with no date coming: the member says which weekdays and times suit
 * them; the teacher sees it, and the member gets a mail when a date is added. A member who has asked already and
 * not been answered is told so, on this visit and the next, instead of being offered the form again.
 */
export function RequestPanel({ classWorkId, teacherId }: { classWorkId: number; teacherId: number }) {
  const viewer = useViewer()
  const myId = useRouteContext({
    from: '__root__',
    select: (c) => (c.auth.status === 'authenticated' ? c.auth.user?.id : undefined),
  })
  const location = useLocation()
  const [open, setOpen] = useState(false)
  const opened = useOnceOpened(open)
  const [done, setDone] = useState(false)
  const query = myClassRequestQuery(classWorkId)
  const queryClient = useQueryClient()
  // A teacher does not ask for dates of their own class (the API refuses with 422): they add one.
  const own = myId !== undefined && myId === teacherId
  const { data: mine, isPending } = useQuery({ ...query, enabled: viewer === 'member' && !own })
  if (own) return null
  // Until a member's own request is known, nothing: not the button they may have pressed already. (The page's
  // loader fetches it, so a first render knows; a failed fetch offers the button.)
  if (viewer === 'member' && isPending) return null
  if (done || mine?.requested)
    return (
      <p className="mt-3 rounded-xl bg-base-light p-3 text-sm" role="status" data-testid="request-done">
        {done ? '開催をリクエストしました' : '開催をリクエスト済みです'}
        。日程が決まったらメールでお知らせします。
      </p>
    )
  return (
    <>
      {open ? null : (
        <button
          type="button"
          className="btn-outline mt-3"
          onClick={() => {
            if (viewer === 'visitor') return openLoginModal(location.href)
            if (viewer === 'unregistered')
              return showErrorSnackbar('プロフィールを登録するとリクエストできます')
            setOpen(true)
          }}
          data-testid="request-open"
        >
          リクエスト開催
        </button>
      )}
      {opened ? (
        <Suspense fallback={null}>
          <RequestForm
            classWorkId={classWorkId}
            open={open}
            onClose={() => setOpen(false)}
            onDone={() => {
              setDone(true)
              const requested: MyClassRequest = { requested: true, requested_at: new Date().toISOString() }
              queryClient.setQueryData(query.queryKey, requested)
            }}
          />
        </Suspense>
      ) : null}
    </>
  )
}
