import { createFileRoute } from '@tanstack/react-router'
import { handleLogout, logoutConfirmation } from '~/server/auth/flow.server'

/**
 * POST /auth/logout ends the session everywhere and revokes its refresh token (app/server/auth/flow.server.ts);
 * the CSRF middleware in app/start.ts refuses cross-site posts. GET only asks: it changes nothing.
 */
export const Route = createFileRoute('/auth/logout')({
  server: {
    handlers: {
      GET: () => logoutConfirmation(),
      POST: ({ request }) => handleLogout(request),
    },
  },
})
