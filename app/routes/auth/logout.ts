import { createFileRoute } from '@tanstack/react-router'
import { handleLogout } from '~/server/auth/flow.server'

/** GET /auth/logout — server route; tokens stay on the server (app/server/auth/flow.server.ts). */
export const Route = createFileRoute('/auth/logout')({
  server: { handlers: { GET: ({ request }) => handleLogout(request) } },
})
