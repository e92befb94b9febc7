import { createFileRoute } from '@tanstack/react-router'
import { ApiError, api } from '~/server/api-client'
import { getSessionAccessToken } from '~/server/auth/flow.server'
import { readVerificationImage } from '~/server/verification-documents.server'

/**
 * GET /downloads/verification/{id}/{face|document} — one image of a 本人確認 submission, for operators only.
 * The API checks the role and writes the read to the audit log before it names the stored file; the image is
 * never cached and never framed.
 */
export const Route = createFileRoute('/downloads/verification/$id/$kind')({
  server: {
    handlers: {
      GET: async ({ request, params }) => {
        const headers = new Headers({
          'Cache-Control': 'private, no-store',
          'X-Content-Type-Options': 'nosniff',
        })
        const text = (status: number, message: string) => {
          const h = new Headers(headers)
          h.set('Content-Type', 'text/plain; charset=utf-8')
          return new Response(message, { status, headers: h })
        }
        const session = await getSessionAccessToken(request, {
          onSetCookie: (value) => headers.append('Set-Cookie', value),
        })
        if (!session) return text(401, 'ログインしてください')
        const id = /^[1-9]\d{0,8}$/.test(params.id) ? Number(params.id) : undefined
        const kind = params.kind === 'face' || params.kind === 'document' ? params.kind : undefined
        if (id === undefined || kind === undefined) return text(404, 'お探しの画像が見つかりませんでした')
        try {
          const { path } = await api.adminVerificationDocument(
            session.accessToken,
            id,
            kind,
            request.headers.get('x-real-ip') ?? undefined,
          )
          const bytes = await readVerificationImage(path)
          if (!bytes) return text(404, '保存期間を過ぎたため、画像は削除されています')
          headers.set('Content-Type', 'image/webp')
          headers.set('Content-Security-Policy', "default-src 'none'")
          return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers })
        } catch (error) {
          if (error instanceof ApiError && error.status < 500) return text(error.status, error.message)
          throw error
        }
      },
    },
  },
})
