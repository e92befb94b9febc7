import { describe, expect, it } from 'vitest'
import { csvText } from './csv'
import { PAYOUT_CSV_HEADER, payoutCsvRows } from './payout-csv'

describe('payoutCsvRows', () => {
  it('writes each payment and refund with Tokyo times, then totals that equal the net, the debt carried from earlier months, the transfer and its date', () => {
    const text = csvText(
      PAYOUT_CSV_HEADER,
      payoutCsvRows({
        month: '2026-11',
        gross: 10000,
        commission: 2000,
        refunds: 5000,
        refunded_commission: 1000,
        net: 4000,
        carried_over: -1500,
        transfer_amount: 2500,
        payment_count: 2,
        refund_count: 1,
        transfer_date: '2026-12-31',
        lines: [
          {
            kind: 'payment',
            at: '2026-11-01T00:00:00.000Z',
            purchase_id: 1,
            class_title: 'A, B',
            amount: 5000,
            commission: 1000,
          },
          {
            kind: 'payment',
            at: '2026-11-02T00:00:00.000Z',
            purchase_id: 2,
            class_title: 'C',
            amount: 5000,
            commission: 1000,
          },
          {
            kind: 'refund',
            at: '2026-11-03T15:30:00.000Z',
            purchase_id: 1,
            class_title: 'A, B',
            amount: 5000,
            commission: 1000,
          },
        ],
      }),
    )
    expect(text.split('\r\n')).toEqual([
      '日時,種別,購入ID,クラス,金額,手数料,差引',
      '2026-11-01 09:00,お支払い,1,"A, B",5000,-1000,4000',
      '2026-11-02 09:00,お支払い,2,C,5000,-1000,4000',
      '2026-11-04 00:30,返金,1,"A, B",-5000,1000,-4000',
      '合計,,,,5000,-1000,4000',
      '前月までの繰越,,,,,,-1500',
      '振込額,,,,,,2500',
      '振込予定日 2026-12-31,,,,,,',
      '',
    ])
  })
})
