import { createFileRoute } from '@tanstack/react-router'
import { liveEventsResponse } from '~/server/live-stream.server'

/**
 * GET /events — live updates for the signed-in member (Server-Sent Events; app/server/live-stream.server.ts).
 * 401 when signed out; the browser side is app/components/shell/live-updates.ts.
 */
export const Route = createFileRoute('/events')({
  server: {
    handlers: {
      GET: ({ request }) => liveEventsResponse(request),
    },
  },
})
