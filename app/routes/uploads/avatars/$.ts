import { createFileRoute } from '@tanstack/react-router'
import { readAvatar } from '~/server/avatar-upload.server'

/** GET /uploads/avatars/<random>.<ext> — uploaded avatars; names are random and never reused. */
export const Route = createFileRoute('/uploads/avatars/$')({
  server: {
    handlers: {
      GET: async ({ params }) => {
        const file = await readAvatar(params._splat ?? '')
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
