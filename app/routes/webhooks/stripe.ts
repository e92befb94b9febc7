import { createFileRoute } from '@tanstack/react-router'
import { getApiApp } from '~/server/api-app.server'

/**
 * POST /webhooks/stripe — Stripe's signed events (issue 17). The raw request goes on, unchanged, to the API's
 * /v1/webhooks/stripe, which verifies the Stripe-Signature against the body's exact bytes and handles each event
 * id once.
 */
export const Route = createFileRoute('/webhooks/stripe')({
  server: {
    handlers: {
      POST: async ({ request }) => {
        const url = new URL(request.url)
        url.pathname = '/v1/webhooks/stripe'
        return getApiApp().fetch(new Request(url, request))
      },
    },
  },
})
