import { createFileRoute } from '@tanstack/react-router'

/** GET /healthz — the process is up (load balancers; nothing else is checked). */
export const Route = createFileRoute('/healthz')({
  server: {
    handlers: {
      GET: () => Response.json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } }),
    },
  },
})
