import { createFileRoute } from '@tanstack/react-router'
import { readUpload } from '~/server/uploads.server'

/** GET /uploads/{classes,avatars}/<random>.<ext> — uploaded images; names are random and never reused. */
export const Route = createFileRoute('/uploads/$')({
  server: {
    handlers: {
      GET: async ({ params }) => {
        const file = await readUpload(params._splat ?? '')
        if (!file)
          return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } })
        return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
          headers: {
            'Content-Type': file.type,
            'Cache-Control': 'public, max-age=31536000, immutable',
            'X-Content-Type-Options': 'nosniff',
            'Content-Security-Policy': "default-src 'none'",
          },
        })
      },
    },
  },
})
