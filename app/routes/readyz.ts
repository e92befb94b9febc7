import { createFileRoute } from '@tanstack/react-router'
import { readinessResponse } from '~/server/readiness.server'

/** GET /readyz — the database is reachable (load balancers stop sending requests while it answers 503). */
export const Route = createFileRoute('/readyz')({
  server: { handlers: { GET: () => readinessResponse() } },
})
