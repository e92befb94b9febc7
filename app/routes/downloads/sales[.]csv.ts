import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { attachmentDisposition } from '~/lib/csv'
import { isMonth, tokyoMonth } from '~/lib/month'
import { api } from '~/server/api-client'
import { signedInFile } from '~/server/signed-in-file.server'

/**
 * GET /downloads/sales.csv?month=YYYY-MM — the teacher's sales of a month as CSV (UTF-8 with BOM, header row,
 * RFC 4180): the bytes of GET /v1/teachers/sales.csv, with the session's token.
 */
export const Route = createFileRoute('/downloads/sales.csv')({
  server: {
    handlers: {
      GET: ({ request }) =>
        signedInFile(request, 'sales-csv', async ({ accessToken, headers, text }) => {
          const month = new URL(request.url).searchParams.get('month') ?? undefined
          if (month !== undefined && !isMonth(month))
            return text(400, '月は YYYY-MM の形式で指定してください')
          const m = month ?? tokyoMonth(new Date())
          // The API's CSV itself: every line of the month (the report's JSON lists the first 2,000 for the page).
          const bytes = await api.request(accessToken, z.instanceof(Uint8Array), {
            method: 'GET',
            path: '/v1/teachers/sales.csv',
            query: { month: m },
            bytes: true,
          })
          headers.set('Content-Type', 'text/csv; charset=utf-8')
          headers.set('Content-Disposition', attachmentDisposition(`売上_${m}.csv`, `sales-${m}.csv`))
          return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers })
        }),
    },
  },
})
