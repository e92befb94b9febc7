import type { SalesLine } from '../contract/v1/sales'
import { salesStatusLabel } from './sales-status'

/** The sales CSV's columns and rows (Tokyo times), shared by the /v1 endpoint and the page's download. */

const tokyoDateTime = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})
const tokyoText = (value: string | null) => (value ? tokyoDateTime.format(new Date(value)) : '')

export const SALES_CSV_HEADER = [
  '購入ID',
  '予約日時',
  'クラスID',
  'クラス',
  '開催日時',
  '購入者',
  '受講者',
  '金額',
  '手数料',
  '売上（手数料差引後）',
  '状態',
  'キャンセル日時',
] as const

/**
 * The CSV rows of a month's purchases (Tokyo times). A cancelled seat keeps its price for reference, but neither a
 * commission nor a net: its refund gave everything back (0025), so the columns add up to the page's totals.
 */
export function salesCsvRows(lines: SalesLine[]) {
  return lines.map((l) => [
    l.purchase_id,
    tokyoText(l.created_at),
    l.class_work_id,
    l.class_work_title,
    tokyoText(l.schedule_started_at),
    l.buyer_nickname,
    l.learner_nickname ?? '',
    l.price,
    l.status === 'reserved' ? l.commission : 0,
    l.status === 'reserved' ? l.net : 0,
    salesStatusLabel(l),
    tokyoText(l.canceled_at),
  ])
}
