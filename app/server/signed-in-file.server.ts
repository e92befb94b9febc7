import '@tanstack/react-start/server-only'
import { DATABASE_RETRY_AFTER_S } from '../db/client'
import { errorLine } from '../db/log-safe'
import { ApiError } from './api-client/errors'
import { getSessionAccessToken } from './auth/flow.server'

export interface SignedInFileReply {
  accessToken: string
  /** The response's headers so far: private, no-store, and any renewed session cookie. */
  headers: Headers
  /** A plain-text answer in Japanese with those headers (a refusal: 400, 404…). */
  text: (status: number, message: string) => Response
}

/**
 * A file made for the signed-in member (a CSV, an .ics, an operator's image): never cached; 401 without a session;
 * the API's refusal (4xx) as its Japanese text; and 503 with Retry-After, in Japanese, when the session or the data
 * cannot be read (the database, the API or the store away), as pages answer then, never the server's bare 500. The
 * headers (a renewed session cookie, nosniff) go with every answer, a 503 included.
 */
export async function signedInFile(
  request: Request,
  what: string,
  make: (reply: SignedInFileReply) => Promise<Response>,
  opts: { headers?: Record<string, string>; session?: typeof getSessionAccessToken } = {},
): Promise<Response> {
  const headers = new Headers({ ...opts.headers, 'Cache-Control': 'private, no-store' })
  const text = (status: number, message: string) => {
    const h = new Headers(headers)
    h.set('Content-Type', 'text/plain; charset=utf-8')
    return new Response(message, { status, headers: h })
  }
  try {
    const session = await (opts.session ?? getSessionAccessToken)(request, {
      onSetCookie: (value) => headers.append('Set-Cookie', value),
    })
    if (!session) return text(401, 'ログインしてください')
    return await make({ accessToken: session.accessToken, headers, text })
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return text(error.status, error.message)
    console.error(`[${what}] unavailable:`, errorLine(error))
    headers.set('Retry-After', String(DATABASE_RETRY_AFTER_S))
    return text(503, 'ただいまサービスを利用できません。しばらくしてからもう一度お試しください')
  }
}
