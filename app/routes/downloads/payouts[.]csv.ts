import { createFileRoute } from '@tanstack/react-router'
import { PayoutStatement } from '~/contract/v1/payments'
import { attachmentDisposition, csvBytes } from '~/lib/csv'
import { isMonth } from '~/lib/month'
import { PAYOUT_CSV_HEADER, payoutCsvRows } from '~/lib/payout-csv'
import { api } from '~/server/api-client'
import { signedInFile } from '~/server/signed-in-file.server'

/**
 * GET /downloads/payouts.csv?month=YYYY-MM — the teacher's payout statement of a month as CSV (issue 17; UTF-8
 * with BOM, header row, RFC 4180), built from GET /v1/teachers/payouts.
 */
export const Route = createFileRoute('/downloads/payouts.csv')({
  server: {
    handlers: {
      GET: ({ request }) =>
        signedInFile(request, 'payouts-csv', async ({ accessToken, headers, text }) => {
          const month = new URL(request.url).searchParams.get('month') ?? undefined
          if (month !== undefined && !isMonth(month))
            return text(400, '月は YYYY-MM の形式で指定してください')
          const statement = await api.request(accessToken, PayoutStatement, {
            method: 'GET',
            path: '/v1/teachers/payouts',
            query: { month },
          })
          headers.set('Content-Type', 'text/csv; charset=utf-8')
          headers.set(
            'Content-Disposition',
            attachmentDisposition(`振込明細_${statement.month}.csv`, `payouts-${statement.month}.csv`),
          )
          const bytes = csvBytes(PAYOUT_CSV_HEADER, payoutCsvRows(statement))
          return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers })
        }),
    },
  },
})
