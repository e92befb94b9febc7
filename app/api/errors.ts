import type { ContentfulStatusCode } from 'hono/utils/http-status'

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
export const invalidRequest = (message = '入力内容に誤りがあります', issues?: unknown[]) =>
  new ApiError(400, 'invalid_request', message, issues ? { issues } : undefined)
