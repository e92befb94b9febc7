import { useLocation, useRouteContext } from '@tanstack/react-router'
import { Suspense, useState } from 'react'
import { lazyPart } from '~/components/shell/lazy-part'
import { openLoginModal, showErrorSnackbar } from '~/components/shell/ui-store'
import { useViewer } from '~/components/shell/use-viewer'
import { useOnceOpened } from '~/components/ui/use-once-opened'

// The form and its call are only reachable from the button: they load on the first press (0008).
const RequestForm = lazyPart(() => import('./request-form').then((m) => ({ default: m.RequestForm })))

/**
 * 「リクエスト開催」 (issue 16) under a class with no date coming: the member says which weekdays and times suit
 * them; the teacher sees it, and the member gets a mail when a date is added.
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
  // A teacher does not ask for dates of their own class (the API refuses with 422): they add one.
  if (myId === teacherId) return null
  if (done)
    return (
      <p className="mt-3 rounded-xl bg-base-light p-3 text-sm" role="status" data-testid="request-done">
        開催をリクエストしました。日程が決まったらメールでお知らせします。
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
            onDone={() => setDone(true)}
          />
        </Suspense>
      ) : null}
    </>
  )
}
