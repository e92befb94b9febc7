import { createFileRoute } from '@tanstack/react-router'
import { handleLogin } from '~/server/auth/flow.server'

/** GET /auth/login — server route; tokens stay on the server (app/server/auth/flow.server.ts). */
export const Route = createFileRoute('/auth/login')({
  server: { handlers: { GET: ({ request }) => handleLogin(request) } },
})
