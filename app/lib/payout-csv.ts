import type { PayoutStatement } from '../contract/v1/payments'
import type { CsvCell } from './csv'

/**
 * The payout statement's CSV (issue 17): one row per payment or refund, then the month's totals, what earlier months
 * still owed, and what is transferred.
 */
export const PAYOUT_CSV_HEADER = ['日時', '種別', '購入ID', 'クラス', '金額', '手数料', '差引'] as const

const tokyo = (iso: string) =>
  new Date(new Date(iso).getTime() + 9 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ')

export function payoutCsvRows(s: PayoutStatement): CsvCell[][] {
  const lines: CsvCell[][] = s.lines.map((l) =>
    l.kind === 'payment'
      ? [
          tokyo(l.at),
          'お支払い',
          l.purchase_id,
          l.class_title,
          l.amount,
          -l.commission,
          l.amount - l.commission,
        ]
      : [
          tokyo(l.at),
          '返金',
          l.purchase_id,
          l.class_title,
          -l.amount,
          l.commission,
          -(l.amount - l.commission),
        ],
  )
  return [
    ...lines,
    ['合計', '', '', '', s.gross - s.refunds, -(s.commission - s.refunded_commission), s.net],
    ['前月までの繰越', '', '', '', '', '', s.carried_over],
    ['振込額', '', '', '', '', '', s.transfer_amount],
    [`振込予定日 ${s.transfer_date}`, '', '', '', '', '', ''],
  ]
}
