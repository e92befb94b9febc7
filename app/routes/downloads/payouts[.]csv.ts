import { createFileRoute } from '@tanstack/react-router'
import { PayoutStatement } from '~/contract/v1/payments'
import { attachmentDisposition, csvBytes } from '~/lib/csv'
import { isMonth } from '~/lib/month'
import { PAYOUT_CSV_HEADER, payoutCsvRows } from '~/lib/payout-csv'
import { ApiError, api } from '~/server/api-client'
import { getSessionAccessToken } from '~/server/auth/flow.server'

/**
 * GET /downloads/payouts.csv?month=YYYY-MM — the teacher's payout statement of a month as CSV (issue 17; UTF-8
 * with BOM, header row, RFC 4180), built from GET /v1/teachers/payouts.
 */
export const Route = createFileRoute('/downloads/payouts.csv')({
  server: {
    handlers: {
      GET: async ({ request }) => {
        const headers = new Headers({ 'Cache-Control': 'private, no-store' })
        const session = await getSessionAccessToken(request, {
          onSetCookie: (value) => headers.append('Set-Cookie', value),
        })
        const text = (status: number, message: string) => {
          const h = new Headers(headers)
          h.set('Content-Type', 'text/plain; charset=utf-8')
          return new Response(message, { status, headers: h })
        }
        if (!session) return text(401, 'ログインしてください')
        const month = new URL(request.url).searchParams.get('month') ?? undefined
        if (month !== undefined && !isMonth(month)) return text(400, '月は YYYY-MM の形式で指定してください')
        try {
          const statement = await api.request(session.accessToken, PayoutStatement, {
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
        } catch (error) {
          if (error instanceof ApiError && error.status < 500) return text(error.status, error.message)
          throw error
        }
      },
    },
  },
})
