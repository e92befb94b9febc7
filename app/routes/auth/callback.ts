import { createFileRoute } from '@tanstack/react-router'
import { handleCallback } from '~/server/auth/flow.server'

/** GET /auth/callback — server route; tokens stay on the server (app/server/auth/flow.server.ts). */
export const Route = createFileRoute('/auth/callback')({
  server: { handlers: { GET: ({ request }) => handleCallback(request) } },
})
