import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { contactKindsLabel, detectContactInfo } from '../lib/contact-detector'

/** An error the API answers with `{ code, message }` (message in Japanese, shown to users as is). */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message)
  }
}

export const notFound = (what = 'お探しの情報') =>
  new ApiError(404, 'not_found', `${what}が見つかりませんでした`)
/** Content an operator took down (a hidden class, a suspended teacher): 410, not 404 — it existed and will not return. */
export const gone = (message: string) => new ApiError(410, 'gone', message)
/** An operator deciding on their own account, content or message: another operator must (four eyes). */
export const ownAccount = () =>
  new ApiError(409, 'own_account', 'ご自身に関わる審査・対応はできません。ほかの運営担当者が対応します')

export const invalidRequest = (message = '入力内容に誤りがあります', issues?: unknown[]) =>
  new ApiError(400, 'invalid_request', message, issues ? { issues } : undefined)

/** The SQLSTATE of a database error, wherever the driver or drizzle put it in the cause chain. */
export function sqlState(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
  }
  return undefined
}

/**
 * 422 `contact_info` when member text meant for others carries contact details or an SNS id: on a children's
 * marketplace, contact moves off the platform only through its messages, which are held for an operator instead.
 * `what` names the field (レビュー, 返信, お知らせ); without it the message says only what was found.
 */
export function refuseContactInfo(text: string, what?: string): void {
  const message = contactInfoMessage(text, what)
  if (message) throw new ApiError(422, 'contact_info', message)
}

/** The refusal's text when `text` carries contact details, else undefined. */
function contactInfoMessage(text: string, what?: string): string | undefined {
  const found = detectContactInfo(text)
  if (!found.flagged) return undefined
  return `${what ?? ''}${what ? 'に' : ''}連絡先やSNSのIDは書けません（${contactKindsLabel(found.kinds)}）`
}

/**
 * refuseContactInfo for profile fields others see (a nickname names its member in every room, list and mail; a
 * teacher's introduction is public): 422 `contact_info` with the field's own message, for the form to show by it.
 */
export function refuseContactInfoIn(
  fields: Record<string, { label: string; text: string | null | undefined }>,
) {
  const issues: { path: string[]; message: string }[] = []
  for (const [key, { label, text }] of Object.entries(fields)) {
    const message = text ? contactInfoMessage(text, label) : undefined
    if (message) issues.push({ path: [key], message })
  }
  if (issues.length > 0) throw new ApiError(422, 'contact_info', issues[0]!.message, { issues })
}

/**
 * The API's answer when a request outlives API_REQUEST_TIMEOUT_MS (503). The handler goes on and may still commit
 * its write: what it did is unknown (the Idempotency-Key claim is kept, app/api/idempotency.ts).
 */
export class RequestTimedOutError extends HTTPException {
  constructor() {
    super(503, { message: 'request timed out' })
  }
}
