import { createFileRoute } from '@tanstack/react-router'
import { orUnavailable } from '~/server/unavailable.server'

/**
 * POST /mail/unsubscribe?token=… — RFC 8058 one-click unsubscribe: mail programs POST here
 * (`List-Unsubscribe=One-Click`) when the reader presses their "unsubscribe" button, without opening the site.
 * The signed token is the only authority (no cookie is read), so this path is exempt from the CSRF check.
 * A person who opens the link in a browser is sent to the confirmation page instead.
 */
export const Route = createFileRoute('/mail/unsubscribe')({
  server: {
    handlers: {
      GET: ({ request }) => {
        const token = new URL(request.url).searchParams.get('token') ?? ''
        return new Response(null, {
          status: 303,
          headers: {
            location: `/unsubscribe?${new URLSearchParams({ token })}`,
            'cache-control': 'no-store',
          },
        })
      },
      // The database away: 503 with Retry-After, which a mail program may try again after (not a bare 500).
      POST: ({ request }) =>
        orUnavailable('unsubscribe', async () => {
          const token = (new URL(request.url).searchParams.get('token') ?? '').slice(0, 200)
          const { api } = await import('~/server/api-client')
          const state = token ? await api.unsubscribe(token) : undefined
          return state
            ? Response.json({ ok: true, kind: state.kind }, { headers: { 'cache-control': 'no-store' } })
            : Response.json(
                { code: 'invalid_token', message: '配信停止のリンクが正しくありません' },
                { status: 400, headers: { 'cache-control': 'no-store' } },
              )
        }),
    },
  },
})
