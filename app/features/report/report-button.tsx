import * as Dialog from '@radix-ui/react-dialog'
import { useMutation } from '@tanstack/react-query'
import { useLocation } from '@tanstack/react-router'
import { useId, useState } from 'react'
import { openLoginModal, showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { useViewer } from '~/components/shell/use-viewer'
import { FieldError, inputClass } from '~/components/ui/form-parts'
import { useReturnFocus } from '~/components/ui/return-focus'
import { REPORT_REASONS, type ReportReason } from '~/lib/report-reasons'
import { sendReport } from './report.functions'

type Target = 'class' | 'teacher' | 'message' | 'review'
const TARGET_LABELS: Record<Target, string> = {
  class: 'このクラスを通報する',
  teacher: 'この先生を通報する',
  message: '通報する',
  review: 'このレビューを通報する',
}

/**
 * 「通報する」: a reason from the list and free text, sent to the operators. Visitors get the login modal first.
 * The answer is always 「通報を受け付けました」 — the reported person is never told who reported them.
 */
export function ReportButton(props: { target: Target; id: number; compact?: boolean }) {
  const viewer = useViewer()
  const location = useLocation()
  const uid = useId()
  const [open, setOpen] = useState(false)
  const returnFocus = useReturnFocus()
  const [reason, setReason] = useState<ReportReason | ''>('')
  const [detail, setDetail] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const send = useMutation({
    mutationFn: () =>
      sendReport({
        data: { target_type: props.target, target_id: props.id, reason: reason as ReportReason, detail },
      }),
    onSuccess: (result) => {
      if (!result.ok) {
        setErrors(result.fieldErrors)
        return showErrorSnackbar(result.message)
      }
      setOpen(false)
      setReason('')
      setDetail('')
      setErrors({})
      showSnackbar({ message: result.data.message })
    },
    onError: () => showErrorSnackbar('通報を送信できませんでした。時間をおいてもう一度お試しください'),
  })
  const onOpen = () => {
    if (viewer === 'visitor') return openLoginModal(location.href)
    if (viewer === 'unregistered') return showErrorSnackbar('プロフィールを登録すると通報できます')
    setOpen(true)
  }
  const submit = () => {
    if (!reason) return setErrors({ reason: '通報の理由を選んでください' })
    send.mutate()
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
      <Dialog.Root open={open} onOpenChange={setOpen}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
          <Dialog.Content
            className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl focus:outline-none"
            data-testid="report-dialog"
            {...returnFocus}
          >
            <Dialog.Title className="text-lg font-bold">運営に通報する</Dialog.Title>
            <Dialog.Description className="mt-2 text-sm text-slate-700">
              通報した内容は運営だけが確認します。相手にあなたの名前が伝わることはありません。
            </Dialog.Description>
            <fieldset className="mt-4" aria-describedby={errors.reason ? `${uid}-reason-error` : undefined}>
              <legend className="text-sm font-bold">理由</legend>
              <div className="mt-2 flex flex-col gap-2">
                {(Object.keys(REPORT_REASONS) as ReportReason[]).map((r) => (
                  <label key={r} className="flex items-start gap-2 text-sm">
                    <input
                      type="radio"
                      name={`${uid}-reason`}
                      value={r}
                      checked={reason === r}
                      onChange={() => setReason(r)}
                      className="mt-1"
                    />
                    {REPORT_REASONS[r]}
                  </label>
                ))}
              </div>
              <FieldError id={`${uid}-reason-error`} message={errors.reason} />
            </fieldset>
            <div className="mt-4">
              <label htmlFor={`${uid}-detail`} className="text-sm font-bold">
                くわしい内容（任意・1000文字まで）
              </label>
              <textarea
                id={`${uid}-detail`}
                rows={4}
                className={inputClass}
                value={detail}
                maxLength={1000}
                aria-invalid={Boolean(errors.detail)}
                aria-describedby={errors.detail ? `${uid}-detail-error` : undefined}
                onChange={(e) => setDetail(e.target.value)}
                data-testid="report-detail"
              />
              <FieldError id={`${uid}-detail-error`} message={errors.detail} />
            </div>
            <div className="mt-5 flex flex-wrap justify-end gap-2">
              <Dialog.Close asChild>
                <button type="button" className="btn-ghost">
                  やめる
                </button>
              </Dialog.Close>
              <button
                type="button"
                className="btn-primary"
                disabled={send.isPending}
                onClick={submit}
                data-testid="report-submit"
              >
                {send.isPending ? '送信中…' : '通報する'}
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  )
}
