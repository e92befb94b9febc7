import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useLocation, useNavigate } from '@tanstack/react-router'
import { openLoginModal, showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { ModalDialog } from '~/components/ui/modal-dialog'
import { LessonList } from '~/components/ui/schedule-when'
import type { ClassWorkDetail, PublicSchedule } from '~/contract/v1/class-works'
import { formatPrice, formatRunJa, formatScheduleJa } from '~/lib/format'
import { includedTax } from '~/lib/money'
import { reserveSchedule } from './reservation.functions'

/**
 * 「予約の確認」: what is being booked, for whom and at what price, and the reservation itself. `ReservationPanel`
 * loads this file (with Radix Dialog) the first time the member presses 予約する.
 */
export function ReservationConfirm(props: {
  classWork: ClassWorkDetail
  schedule: PublicSchedule | undefined
  learnerId: number | null
  who: string
  gradeWarning: string | null
  gradeConfirmed: boolean
  onGradeConfirmedChange: (confirmed: boolean) => void
  open: boolean
  onOpenChange: (open: boolean) => void
  /** A free class reserved: when it takes place. */
  onDone: (when: string) => void
}) {
  const { classWork, schedule: chosen, gradeWarning } = props
  const location = useLocation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const paid = classWork.price > 0
  const mutation = useMutation({
    mutationFn: (scheduleId: number) =>
      reserveSchedule({ data: { schedule_id: scheduleId, learner_id: props.learnerId } }),
    onSuccess: async (result) => {
      props.onOpenChange(false)
      // Seats changed either way: refresh the class and everything that lists reservations.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['class-detail', classWork.id] }),
        queryClient.invalidateQueries({ queryKey: ['attendance'] }),
        queryClient.invalidateQueries({ queryKey: ['reservation-options'] }),
        queryClient.invalidateQueries({ queryKey: ['mypage'] }),
        queryClient.invalidateQueries({ queryKey: ['auth'] }),
      ])
      if (!result.ok) {
        if (result.status === 401) return openLoginModal(location.href)
        return showErrorSnackbar(result.message || '予約できませんでした')
      }
      // A paid class: the seat is held while the member pays on the checkout page (issue 17).
      if (result.data.status === 'pending' && result.data.payment) {
        await navigate({ to: '/checkout/$id', params: { id: String(result.data.payment.id) } })
        return
      }
      const s = result.data.schedule
      props.onDone(formatRunJa(s.started_at, s.ended_at, s.lessons.length))
      showSnackbar({ message: '予約しました' })
    },
    onError: (error) => {
      props.onOpenChange(false)
      showErrorSnackbar(`予約できませんでした ${(error as Error).message ?? ''}`)
    },
  })

  return (
    <ModalDialog
      open={props.open}
      onOpenChange={(v) => {
        if (!mutation.isPending) props.onOpenChange(v)
      }}
      title="予約の確認"
      testId="reservation-confirm"
      message={
        chosen ? (
          <span className="block text-left">
            <span className="block font-bold">{classWork.title}</span>
            {chosen.lessons.length > 1 ? (
              <span className="mt-2 block">
                日時：全{chosen.lessons.length}回
                <LessonList lessons={chosen.lessons} />
              </span>
            ) : (
              <span className="mt-2 block">日時：{formatScheduleJa(chosen.started_at, chosen.ended_at)}</span>
            )}
            <span className="block">受講する人：{props.who}</span>
            {gradeWarning ? (
              <span
                role="alert"
                className="mt-2 block rounded-lg border-2 border-amber-500 bg-amber-50 p-3 text-sm"
                data-testid="grade-warning"
              >
                <span className="block font-bold">{gradeWarning}</span>
                <span className="block">
                  内容や難しさが合うか、クラスの説明を確かめてから予約してください。
                </span>
                <label className="mt-2 flex items-center gap-2 font-bold">
                  <input
                    type="checkbox"
                    className="size-5"
                    checked={props.gradeConfirmed}
                    onChange={(e) => props.onGradeConfirmedChange(e.target.checked)}
                    data-testid="grade-confirm"
                  />
                  対象学年外であることを確認しました
                </label>
              </span>
            ) : null}
            <span className="block">
              料金：{formatPrice(classWork.price)}
              {paid ? `（税込、うち消費税 ${formatPrice(includedTax(classWork.price))}）` : ''}
            </span>
            {paid ? (
              <span className="mt-2 block text-xs text-slate-600">
                次の画面でお支払いください。お支払いが終わるまで10分間、席を確保します。
              </span>
            ) : null}
            <span className="mt-2 block text-xs text-slate-600">
              {chosen.lessons.length > 1
                ? 'キャンセルは第1回の授業開始の24時間前まで、コース全体でできます（全額返金）。'
                : 'キャンセルは授業開始の24時間前までできます（全額返金）。'}
            </span>
          </span>
        ) : undefined
      }
      buttons={[
        {
          text: 'やめる',
          color: 'ghost',
          onClick: () => props.onOpenChange(false),
          disable: mutation.isPending,
        },
        {
          text: mutation.isPending ? '予約しています…' : paid ? 'お支払いへ進む' : '予約を確定する',
          color: 'primary',
          disable: !chosen || mutation.isPending || (gradeWarning !== null && !props.gradeConfirmed),
          onClick: () => chosen && mutation.mutate(chosen.id),
        },
      ]}
    />
  )
}
