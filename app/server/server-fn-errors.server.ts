import '@tanstack/react-start/server-only'
import { isNotFound, isRedirect } from '@tanstack/react-router'
import { getRequest, setResponseHeader, setResponseStatus } from '@tanstack/react-start/server'
import { fromJSON } from 'seroval'
import { fieldErrorsOf } from '~/lib/action-result'
import { ServerFnError } from '~/lib/server-fn-error'
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from '../db/client'
import { withoutQueryParams } from '../db/log-safe'
import { ApiError } from './api-client'
import { logger } from './logger.server'

/** What the browser learns of a failed server function: a status, a stable code and a Japanese message. */
export interface ClientError {
  status: number
  code: string
  message: string
  fieldErrors: Record<string, string>
}

export const INVALID_INPUT_MESSAGE = '入力内容に誤りがあります'
export const INTERNAL_ERROR_MESSAGE = 'サーバーで問題が発生しました。'
export const UNAVAILABLE_MESSAGE = 'ただいまサービスを利用できません'

/** Start's standard-schema validator failure: an Error whose message is the JSON of the issues. */
function validatorIssues(error: unknown): unknown[] | undefined {
  if (!(error instanceof Error)) return undefined
  const own = (error as Error & { issues?: unknown }).issues
  if (Array.isArray(own)) return own
  if (!error.message.startsWith('[')) return undefined
  try {
    const issues = JSON.parse(error.message) as unknown
    return Array.isArray(issues) && issues.every((i) => i && typeof i === 'object' && 'message' in i)
      ? issues
      : undefined
  } catch {
    return undefined
  }
}

/** Maps anything a server function threw to what the browser may see. */
export function classifyServerFnError(error: unknown): ClientError {
  const issues = validatorIssues(error)
  if (issues)
    return {
      status: 400,
      code: 'invalid_request',
      message: INVALID_INPUT_MESSAGE,
      fieldErrors: fieldErrorsOf(issues),
    }
  if (
    isDatabaseUnavailable(error) ||
    (error instanceof ApiError && (error.status === 503 || error.code === 'upstream_unavailable'))
  )
    return { status: 503, code: 'database_unavailable', message: UNAVAILABLE_MESSAGE, fieldErrors: {} }
  if (error instanceof ApiError) {
    return error.status < 500
      ? {
          status: error.status,
          code: error.code,
          message: error.message,
          fieldErrors: fieldErrorsOf(error.issues),
        }
      : { status: 502, code: error.code, message: INTERNAL_ERROR_MESSAGE, fieldErrors: {} }
  }
  const e = error as { status?: unknown; code?: unknown; message?: unknown }
  const status = typeof e?.status === 'number' ? e.status : undefined
  if (status !== undefined && status >= 400 && status < 500 && typeof e.message === 'string') {
    return {
      status,
      code: typeof e.code === 'string' ? e.code : status === 401 ? 'unauthorized' : 'invalid_request',
      message: e.message,
      fieldErrors: {},
    }
  }
  return { status: 500, code: 'internal_error', message: INTERNAL_ERROR_MESSAGE, fieldErrors: {} }
}

/** Names the code of a failed server-function call for programs (the body is Start's serialization). */
export const ERROR_CODE_HEADER = 'x-error-code'

/**
 * A server-function request Start refused before any function ran (unknown function id, unparsable body,
 * wrong method): Start answers 500 with its English internals or a 405 text. Those are the caller's mistakes:
 * 400 (405) with a Japanese message and a code. Failures our middleware already answered carry ERROR_CODE_HEADER
 * and pass unchanged.
 */
export function normalizeServerFnFailure(response: Response): Response {
  if (response.status < 400 || response.headers.has(ERROR_CODE_HEADER)) return response
  if (response.status !== 405 && response.status < 500) return response
  const status = response.status === 405 ? 405 : 400
  const code = status === 405 ? 'method_not_allowed' : 'invalid_request'
  const message = status === 405 ? 'この方法では呼び出せません' : '不正なリクエストです'
  logger.info({ status, code, upstream: response.status }, 'server function call refused before running')
  void response.body?.cancel().catch(() => {})
  const headers = new Headers({
    'content-type': 'application/json; charset=utf-8',
    [ERROR_CODE_HEADER]: code,
  })
  const allow = response.headers.get('allow')
  if (allow) headers.set('allow', allow)
  return new Response(JSON.stringify({ code, message }), { status, headers })
}

function refusal(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ code, message }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', [ERROR_CODE_HEADER]: code },
  })
}

/**
 * Whether a text is a server-function payload Start can read: seroval JSON ({ t: { t: <type>, … }, f, m }) that
 * deserializes. Start answers anything else with 500 and prints the error's stack, once per request. Plugin nodes
 * (type 25: streams, our error adapter) need Start's plugins, so a payload with one is left to Start.
 */
export function isServerFnPayload(text: string): boolean {
  try {
    const payload = JSON.parse(text) as { t?: { t?: unknown } | null } | null
    if (!payload || typeof payload !== 'object' || typeof payload.t?.t !== 'number') return false
    if (!text.includes('"t":25')) fromJSON(payload as Parameters<typeof fromJSON>[0])
    return true
  } catch {
    return false
  }
}

/**
 * Checks a server-function request before Start reads it: a POST's JSON body, or a GET's `payload` parameter,
 * must be a payload Start can read. Undefined when the request may go on.
 */
export async function precheckServerFnRequest(request: Request): Promise<Response | undefined> {
  let text: string | null
  if (request.method === 'GET') {
    // Start reads an empty or missing payload as no input.
    text = new URL(request.url).searchParams.get('payload')
    if (!text) return undefined
  } else if (request.method === 'POST') {
    // Start's client sends a JSON body only with an input (and never an empty one); forms are multipart.
    if (!(request.headers.get('content-type') ?? '').includes('application/json')) return undefined
    text = await request.clone().text()
  } else return undefined
  if (isServerFnPayload(text)) return undefined
  logger.info({ status: 400, code: 'invalid_request' }, 'server function call with a payload that is not one')
  return refusal(400, 'invalid_request', '不正なリクエストです')
}

/** A server-function request that failed inside Start before any function ran (e.g. an unknown function id). */
export function serverFnCallFailed(error: unknown): Response {
  const message = error instanceof Error ? error.message : String(error)
  logger.info(
    { status: 404, code: 'not_found', reason: message.slice(0, 200) },
    'server function call refused',
  )
  return refusal(404, 'not_found', 'お探しの機能が見つかりませんでした')
}

/** The request is a browser's call of a server function (not a page render that calls one directly). */
function isServerFnRequest(): boolean {
  try {
    return new URL(getRequest().url).pathname.startsWith('/_serverFn/')
  } catch {
    return false
  }
}

/**
 * Turns a server function's failure into an Error the browser can read (message, `status`, `code`,
 * `fieldErrors`; no stack, no internals) and gives the HTTP response that status. A page render that called the
 * function keeps its own status, except 503: a page that could not reach the database says so.
 * Redirects and not-found pass unchanged. Client errors are logged as one line, ours with their stack.
 */
export function toServerFnError(error: unknown): unknown {
  if (isRedirect(error) || isNotFound(error) || error instanceof Response) return error
  const client = classifyServerFnError(error)
  if (client.status >= 500 && client.status !== 503)
    logger.error({ err: withoutQueryParams(error) }, 'server function failed')
  else logger.info({ status: client.status, code: client.code }, 'server function refused')
  if (client.status === 503) {
    setResponseStatus(503)
    setResponseHeader('Retry-After', String(DATABASE_RETRY_AFTER_S))
  } else if (isServerFnRequest()) {
    setResponseStatus(client.status)
  }
  if (isServerFnRequest()) setResponseHeader(ERROR_CODE_HEADER, client.code)
  const clean = new ServerFnError(client)
  // The stack names our files and lines: never sent.
  clean.stack = undefined
  return clean
}

const CODE_OF_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  422: 'unprocessable',
  429: 'rate_limited',
}

/**
 * A refusal returned as a value (`{ ok: false, status }`, which forms read): for a browser's call the HTTP status
 * and ERROR_CODE_HEADER say so too, and a limit's Retry-After (429) says when to try again.
 */
export function setRefusalStatus(
  status: number,
  code = CODE_OF_STATUS[status] ?? 'invalid_request',
  retryAfterS?: number,
): void {
  if (!isServerFnRequest()) return
  setResponseStatus(status)
  setResponseHeader(ERROR_CODE_HEADER, code)
  if (retryAfterS !== undefined) setResponseHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfterS))))
}

/**
 * The HTTP status of the page being rendered (a server function called by a page's loader during SSR): 410 for
 * content an operator took down. A browser's own call of the function keeps 200, so its answer is read as data.
 */
export function setPageStatus(status: 410): void {
  if (!isServerFnRequest()) setResponseStatus(status)
}
