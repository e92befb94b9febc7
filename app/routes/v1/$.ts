import { createFileRoute } from '@tanstack/react-router'
import { getApiApp } from '~/server/api-app.server'

/** /v1/* — the REST API (app/api), served by the same process; every method goes to the Hono app. */
const handle = ({ request }: { request: Request }) => getApiApp().fetch(request)

export const Route = createFileRoute('/v1/$')({
  server: { handlers: { ANY: handle } },
})
