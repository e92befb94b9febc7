import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { attachmentDisposition } from '~/lib/csv'
import { isMonth, tokyoMonth } from '~/lib/month'
import { ApiError, api } from '~/server/api-client'
import { getSessionAccessToken } from '~/server/auth/flow.server'

/**
 * GET /downloads/sales.csv?month=YYYY-MM — the teacher's sales of a month as CSV (UTF-8 with BOM, header row,
 * RFC 4180): the bytes of GET /v1/teachers/sales.csv, with the session's token.
 */
export const Route = createFileRoute('/downloads/sales.csv')({
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
        const m = month ?? tokyoMonth(new Date())
        try {
          // The API's CSV itself: every line of the month (the report's JSON lists the first 2,000 for the page).
          const bytes = await api.request(session.accessToken, z.instanceof(Uint8Array), {
            method: 'GET',
            path: '/v1/teachers/sales.csv',
            query: { month: m },
            bytes: true,
          })
          headers.set('Content-Type', 'text/csv; charset=utf-8')
          headers.set('Content-Disposition', attachmentDisposition(`売上_${m}.csv`, `sales-${m}.csv`))
          return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers })
        } catch (error) {
          if (error instanceof ApiError && error.status < 500) return text(error.status, error.message)
          throw error
        }
      },
    },
  },
})
