import type { Purchase } from '~/contract/v1/purchases'

type Labelled = Pick<Purchase, 'status'> & { schedule: Pick<Purchase['schedule'], 'is_canceled'> }

/**
 * What a member's reservation is, in one word: 予約中 before it ends, 受講済み after, キャンセル済み when they
 * cancelled, 開催中止 when the teacher called the lesson off, お支払い待ち while a card payment is held open.
 * `past` is the list it is shown in (the API splits reservations by the end of their last lesson).
 */
export function reservationStatusLabel(p: Labelled, past: boolean): { text: string; tone: string } {
  if (p.status === 'canceled_by_teacher' || p.schedule.is_canceled)
    return { text: '開催中止', tone: 'bg-red-dark text-white' }
  if (p.status === 'canceled_by_user') return { text: 'キャンセル済み', tone: 'bg-slate-200 text-slate-800' }
  if (p.status === 'pending')
    return past
      ? { text: 'お支払い未完了', tone: 'bg-slate-200 text-slate-800' }
      : { text: 'お支払い待ち', tone: 'bg-amber-100 text-amber-900' }
  return past
    ? { text: '受講済み', tone: 'bg-green-100 text-green-900' }
    : { text: '予約中', tone: 'bg-base-light text-base-ink' }
}
