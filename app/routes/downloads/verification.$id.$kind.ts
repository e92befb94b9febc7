import { createFileRoute } from '@tanstack/react-router'
import { api } from '~/server/api-client'
import { signedInFile } from '~/server/signed-in-file.server'
import { readVerificationImage } from '~/server/verification-documents.server'

/**
 * GET /downloads/verification/{id}/{face|document} — one image of a 本人確認 submission, for operators only.
 * The API checks the role and writes the read to the audit log before it names the stored file; the image is
 * never cached and never framed.
 */
export const Route = createFileRoute('/downloads/verification/$id/$kind')({
  server: {
    handlers: {
      GET: ({ request, params }) =>
        signedInFile(
          request,
          'verification-image',
          async ({ accessToken, headers, text }) => {
            const id = /^[1-9]\d{0,8}$/.test(params.id) ? Number(params.id) : undefined
            const kind = params.kind === 'face' || params.kind === 'document' ? params.kind : undefined
            if (id === undefined || kind === undefined) return text(404, 'お探しの画像が見つかりませんでした')
            const { path } = await api.adminVerificationDocument(
              accessToken,
              id,
              kind,
              request.headers.get('x-real-ip') ?? undefined,
            )
            const bytes = await readVerificationImage(path)
            if (!bytes) return text(404, '保存期間を過ぎたため、画像は削除されています')
            headers.set('Content-Type', 'image/webp')
            headers.set('Content-Security-Policy', "default-src 'none'")
            return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers })
          },
          { headers: { 'X-Content-Type-Options': 'nosniff' } },
        ),
    },
  },
})
