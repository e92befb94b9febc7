import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { Modal } from '~/components/ui/modal'
import type { WaitlistEntry } from '~/contract/v1/waitlist'
import { formatDateJa, formatRunJa, formatTimeJa } from '~/lib/format'
import { leaveWaitlistEntry } from './mypage.functions'

/** The member's キャンセル待ち (issue 16): their place in line, or a seat held for them until a time. */
export function WaitlistCard({ entries }: { entries: WaitlistEntry[] }) {
  const queryClient = useQueryClient()
  // A seat held for the member goes to the next in line the moment they leave: that one is confirmed first.
  const [giveUp, setGiveUp] = useState<WaitlistEntry | null>(null)
  const leave = useMutation({
    mutationFn: (id: number) => leaveWaitlistEntry({ data: id }),
    onSettled: () => setGiveUp(null),
    onSuccess: async (result) => {
      if (!result.ok) return showErrorSnackbar(result.message)
      // The class page too (its 「席を確保中」 and seats left), opened next from the cache.
      await Promise.all(
        [['mypage'], ['reservation-options'], ['class-detail']].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      )
      showSnackbar({ message: 'キャンセル待ちをやめました' })
    },
    onError: () => showErrorSnackbar('処理できませんでした。時間をおいてもう一度お試しください'),
  })
  if (entries.length === 0) return null
  return (
    <section
      aria-labelledby="mypage-waitlist"
      className="mt-6 rounded-2xl border border-slate-200 bg-white p-5"
      data-testid="mypage-waitlist"
    >
      <h2 id="mypage-waitlist" className="text-lg font-bold">
        キャンセル待ち
      </h2>
      <ul className="mt-3 flex flex-col gap-3">
        {entries.map((w) => (
          <li
            key={w.id}
            className="flex flex-wrap items-center justify-between gap-2 text-sm"
            data-testid="waitlist-entry"
          >
            <span>
              <Link
                to="/class_search/detail/$id"
                params={{ id: String(w.class_work.id) }}
                className="font-bold underline"
              >
                {w.class_work.title}
              </Link>
              <span className="ml-2 text-slate-700">
                {formatRunJa(w.schedule.started_at, w.schedule.ended_at, w.class_work.lesson_count)}／
                {w.attendee}
              </span>
              <span className="ml-2 font-bold">
                {w.status === 'offered' && w.offer_expires_at
                  ? `席を確保中：${formatDateJa(w.offer_expires_at)} ${formatTimeJa(w.offer_expires_at)}までに予約してください`
                  : `${w.position}番目`}
              </span>
            </span>
            <button
              type="button"
              className="btn-ghost px-3 py-1 text-sm"
              disabled={leave.isPending}
              onClick={() => (w.status === 'offered' ? setGiveUp(w) : leave.mutate(w.id))}
              data-testid="waitlist-entry-leave"
            >
              やめる
            </button>
          </li>
        ))}
      </ul>
      <Modal
        open={giveUp !== null}
        onOpenChange={(v) => {
          if (!v && !leave.isPending) setGiveUp(null)
        }}
        title="確保している席を手放しますか？"
        testId="waitlist-leave-confirm"
        message={
          giveUp ? (
            <span className="block text-left">
              <span className="block font-bold">{giveUp.class_work.title}</span>
              <span className="mt-1 block">
                {formatRunJa(
                  giveUp.schedule.started_at,
                  giveUp.schedule.ended_at,
                  giveUp.class_work.lesson_count,
                )}
                ／{giveUp.attendee}
              </span>
              <span className="mt-2 block">席はすぐに次の方に回り、元に戻せません。</span>
            </span>
          ) : undefined
        }
        buttons={[
          { text: '手放さない', color: 'ghost', disable: leave.isPending, onClick: () => setGiveUp(null) },
          {
            text: '席を手放す',
            color: 'danger',
            disable: leave.isPending,
            onClick: () => giveUp && leave.mutate(giveUp.id),
          },
        ]}
      />
    </section>
  )
}
