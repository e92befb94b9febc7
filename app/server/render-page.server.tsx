import '@tanstack/react-start/server-only'
import { getSsrStatus, transformHtmlStringWithRouter } from '@tanstack/react-router/ssr/server'
import { defineHandlerCallback, StartServer } from '@tanstack/react-start/server'
import { renderToString } from 'react-dom/server'
import { lazyPartsLoaded } from '~/components/shell/lazy-part'
import { logger } from './logger.server'

/** React's mark on a Suspense boundary it rendered its fallback for, leaving the part to the browser. */
export const LEFT_TO_BROWSER = '<!--$!-->'

/** A rendered page's bytes, by its response body: read back from the body only if nothing kept them (renderedBytes). */
const bytesByBody = new WeakMap<ReadableStream, Uint8Array>()

/**
 * Renders a page to one string (docs/decisions/0032). Every loader has run and its data is in the query cache
 * before this is called, and every lazy part's code has loaded (lazyPart), so nothing suspends: the page is whole,
 * without the byte stream Start's default handler builds and that a visitor's page was then read back from for
 * its ETag (response-policy.server.ts).
 *
 * Should a part suspend all the same (a query no loader fetched, an error inside a Suspense boundary), React
 * renders its fallback and the browser renders the part. Such a page is not kept by any shared cache (no-store),
 * and the log names it, so that the missing loader gets fixed.
 */
export const renderPage = defineHandlerCallback(async ({ request, router, responseHeaders }) => {
  await lazyPartsLoaded()
  try {
    const html = await transformHtmlStringWithRouter(router, renderToString(<StartServer router={router} />))
    if (leftToBrowser(html, responseHeaders))
      logger.warn(
        { path: new URL(request.url).pathname },
        'a part of the page suspended on the server and is left to the browser',
      )
    // Bytes, not the string: a string body is checked for lone surrogates and encoded again on every read.
    const bytes = Buffer.from(html)
    const response = new Response(bytes, { status: getSsrStatus(router), headers: responseHeaders })
    if (response.body) bytesByBody.set(response.body, bytes)
    return response
  } catch (error) {
    // What Start's own string handler answers; a loader's error never gets here (the route's error page renders).
    logger.error({ err: error, path: new URL(request.url).pathname }, 'the page failed to render')
    return new Response('Internal Server Error', { status: 500, headers: responseHeaders })
  } finally {
    router.serverSsr?.cleanup()
  }
})

/** Whether React left a part of the page to the browser; such a page is then never stored by any cache. */
export function leftToBrowser(html: string, responseHeaders: Headers): boolean {
  if (!html.includes(LEFT_TO_BROWSER)) return false
  responseHeaders.set('cache-control', 'no-store')
  return true
}

/**
 * A rendered page's bytes without reading its body: the same body object travels through the middlewares that copy
 * a response's headers (`new Response(body, response)`). Undefined for any other body. Not to be written to: the
 * response's body may still be sent.
 */
export function renderedBytes(response: Response): Uint8Array | undefined {
  return response.body ? bytesByBody.get(response.body) : undefined
}
