import { useLocation } from '@tanstack/react-router'
import { Suspense, useState } from 'react'
import { lazyPart } from '~/components/shell/lazy-part'
import { openLoginModal, showErrorSnackbar } from '~/components/shell/ui-store'
import { useViewer } from '~/components/shell/use-viewer'
import { useOnceOpened } from '~/components/ui/use-once-opened'

export type ReportTarget = 'class' | 'teacher' | 'message' | 'review'
const TARGET_LABELS: Record<ReportTarget, string> = {
  class: 'このクラスを通報する',
  teacher: 'この先生を通報する',
  message: '通報する',
  review: 'このレビューを通報する',
}

// The form with Radix Dialog (~14 KB gzip) is not needed to paint the page: it loads the first time it opens (0008).
const ReportDialog = lazyPart(() => import('./report-dialog').then((m) => ({ default: m.ReportDialog })))

/**
 * 「通報する」: a reason from the list and free text, sent to the operators. Visitors get the login modal first.
 * The answer is always 「通報を受け付けました」 — the reported person is never told who reported them.
 */
export function ReportButton(props: { target: ReportTarget; id: number; compact?: boolean }) {
  const viewer = useViewer()
  const location = useLocation()
  const [open, setOpen] = useState(false)
  const opened = useOnceOpened(open)
  const onOpen = () => {
    if (viewer === 'visitor') return openLoginModal(location.href)
    if (viewer === 'unregistered') return showErrorSnackbar('プロフィールを登録すると通報できます')
    setOpen(true)
  }
  return (
    <>
      <button
        type="button"
        onClick={onOpen}
        className={
          props.compact
            ? 'text-xs text-slate-600 underline hover:text-red-dark'
            : 'text-sm text-slate-600 underline hover:text-red-dark'
        }
        data-testid={`report-${props.target}`}
      >
        {TARGET_LABELS[props.target]}
      </button>
      {opened ? (
        <Suspense fallback={null}>
          <ReportDialog target={props.target} id={props.id} open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  )
}
