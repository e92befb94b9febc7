import '@tanstack/react-start/server-only'
import { FetchError, ofetch } from 'ofetch'
import { markInProcess } from '../../api/in-process'
import { RETRY_STATUSES } from '../../lib/retry'
import { ApiError } from './errors'
import { nextWriteKey } from './write-keys.server'

/** One /v1 call as the client sees it; the path starts with `/v1/`. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  path: string
  query?: Record<string, string | number | boolean | undefined>
  token?: string
  /** JSON body. */
  body?: unknown
  /** Multipart body (uploads); sent instead of `body`. */
  form?: FormData
  /** The browser's address (x-real-ip), for what the API records (the audit log). */
  clientAddress?: string
  /** A success body is returned as bytes (a CSV file), not parsed as JSON; an error body is still JSON. */
  bytes?: boolean
}

export interface ApiResponse {
  status: number
  /** Parsed JSON, or undefined for an empty or non-JSON body; a Uint8Array for a `bytes` request's success. */
  data: unknown
  /** Seconds the API asked the caller to wait (its Retry-After on a 429 or 503), when it sent one. */
  retryAfterS?: number
}

/** Sends a request to the API and returns the status and JSON. Throws ApiError only when there is no response. */
export type ApiTransport = (request: ApiRequest) => Promise<ApiResponse>

export const REQUEST_TIMEOUT_MS = 10_000

function headersFor(request: ApiRequest): Headers {
  const headers = new Headers({ accept: 'application/json' })
  if (request.token) headers.set('authorization', `Bearer ${request.token}`)
  // JSON bodies, and authenticated reads too (spec §7: "Authenticated calls send a bearer token and JSON content
  // type"); a bodyless write sends none, as a JSON type with no JSON would not parse.
  if (!request.form && (request.body !== undefined || (request.token && request.method === 'GET')))
    headers.set('content-type', 'application/json')
  if (request.clientAddress) headers.set('x-real-ip', request.clientAddress)
  // Not for an upload: its body is a stream of parts, and an upload stores a new file either way.
  const writeKey = request.form
    ? undefined
    : nextWriteKey(
        request.method,
        () =>
          `${request.path}?${JSON.stringify(request.query ?? {})}\n${JSON.stringify(request.body ?? null)}`,
      )
  if (writeKey) headers.set('idempotency-key', writeKey)
  return headers
}

function withQuery(path: string, query: ApiRequest['query']): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined) params.set(key, String(value))
  const qs = params.toString()
  return qs ? `${path}?${qs}` : path
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text()
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Calls a fetch handler (the Hono app) directly: same Request/Response bytes as HTTP, no socket. */
export function inProcessTransport(
  getHandler: () => Promise<{ fetch(request: Request): Response | Promise<Response> }>,
) {
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const handler = await getHandler()
    const headers = headersFor(request)
    const json = request.form || request.body === undefined ? undefined : JSON.stringify(request.body)
    // The length an HTTP client would send: without it the API's body limit reads the body as a stream and builds
    // the request again to measure it (~60 µs of CPU per call); a multipart body's length is left to FormData.
    if (json !== undefined) headers.set('content-length', String(Buffer.byteLength(json)))
    const response = await handler.fetch(
      markInProcess(
        new Request(`http://internal${withQuery(request.path, request.query)}`, {
          method: request.method,
          headers,
          body: request.form ?? json,
        }),
      ),
    )
    if (request.bytes && response.ok)
      return { status: response.status, data: new Uint8Array(await response.arrayBuffer()) }
    return { status: response.status, data: await readJson(response), ...retryAfterOf(response.headers) }
  }
}

/** Calls the API over HTTP (API_BASE_URL): 10 s timeout, GETs retried on transient statuses. */
export function httpTransport(
  baseUrl: string,
  options: { retries?: number; retryDelayMs?: number; timeoutMs?: number } = {},
) {
  return async (request: ApiRequest): Promise<ApiResponse> => {
    try {
      const response = await ofetch.raw(withQuery(request.path, request.query), {
        baseURL: baseUrl,
        method: request.method,
        headers: headersFor(request),
        body: request.form ?? (request.body === undefined ? undefined : JSON.stringify(request.body)),
        timeout: options.timeoutMs ?? REQUEST_TIMEOUT_MS,
        retry: request.method === 'GET' ? (options.retries ?? 2) : 0,
        retryDelay: options.retryDelayMs ?? 300,
        retryStatusCodes: [...RETRY_STATUSES],
        responseType: request.bytes ? 'arrayBuffer' : 'text',
      })
      if (request.bytes)
        return { status: response.status, data: new Uint8Array(response._data as ArrayBuffer) }
      return { status: response.status, data: parseText(response._data) }
    } catch (err) {
      if (err instanceof FetchError && err.response) {
        const data = err.data instanceof ArrayBuffer ? new TextDecoder().decode(err.data) : err.data
        return { status: err.response.status, data: parseText(data), ...retryAfterOf(err.response.headers) }
      }
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || /timeout/i.test(err.message))
      throw new ApiError(
        timedOut ? 504 : 503,
        'upstream_unavailable',
        timedOut ? 'サーバーからの応答がありませんでした' : 'サーバーに接続できませんでした',
        { cause: err },
      )
    }
  }
}

/** The API's Retry-After in whole seconds (it sends only that form), or nothing. */
export function retryAfterOf(headers: Headers): { retryAfterS?: number } {
  const value = headers.get('retry-after')
  if (value === null || !/^\d{1,6}$/.test(value.trim())) return {}
  return { retryAfterS: Number(value.trim()) }
}

function parseText(data: unknown): unknown {
  if (typeof data !== 'string') return data
  if (!data) return undefined
  try {
    return JSON.parse(data)
  } catch {
    return undefined
  }
}
