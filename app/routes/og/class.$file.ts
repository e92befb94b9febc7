import { createFileRoute } from '@tanstack/react-router'
import { classOgImageResponse } from '~/server/og-image.server'
import { orUnavailable } from '~/server/unavailable.server'

/** GET /og/class/<id>.png — a class's share image, 1200×630 PNG (app/server/og-image.server.ts). */
export const Route = createFileRoute('/og/class/$file')({
  server: {
    handlers: { GET: ({ params }) => orUnavailable('og', () => classOgImageResponse(params.file)) },
  },
})
