import '@tanstack/react-start/server-only'
import { DATABASE_RETRY_AFTER_S } from '../db/client'
import { errorLine } from '../db/log-safe'

/**
 * The answer of a non-page route (a feed, an image, the sitemap) whose data could not be read because the API or
 * its database or store is away: 503 with Retry-After, never cached, as the pages and /v1 answer then; not the
 * server's bare 500.
 */
export function serviceUnavailable(what: string, error: unknown): Response {
  console.error(`[${what}] unavailable:`, errorLine(error))
  return new Response('Service Unavailable', {
    status: 503,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      'Retry-After': String(DATABASE_RETRY_AFTER_S),
    },
  })
}

/** Runs a route's reads; anything they throw (the API's 5xx, no answer, a store error) becomes that 503. */
export async function orUnavailable(what: string, read: () => Promise<Response>): Promise<Response> {
  try {
    return await read()
  } catch (error) {
    return serviceUnavailable(what, error)
  }
}
