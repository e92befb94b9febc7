import * as Dialog from '@radix-ui/react-dialog'
import { useMutation } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { FieldError, inputClass } from '~/components/ui/form-parts'
import { useReturnFocus } from '~/components/ui/return-focus'
import { REPORT_REASONS, type ReportReason } from '~/lib/report-reasons'
import { sendReport } from './report.functions'
import type { ReportTarget } from './report-button'

/**
 * The report form (a reason from the list and free text). `ReportButton` loads this file the first time it
 * opens, with Radix Dialog.
 */
export function ReportDialog(props: {
  target: ReportTarget
  id: number
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const uid = useId()
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
      props.onOpenChange(false)
      setReason('')
      setDetail('')
      setErrors({})
      showSnackbar({ message: result.data.message })
    },
    onError: () => showErrorSnackbar('通報を送信できませんでした。時間をおいてもう一度お試しください'),
  })
  const submit = () => {
    if (!reason) return setErrors({ reason: '通報の理由を選んでください' })
    send.mutate()
  }
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
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
  )
}
