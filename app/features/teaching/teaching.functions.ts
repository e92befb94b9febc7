import { createServerFn } from '@tanstack/react-start'
import { SubmitVerificationBody } from '~/contract/v1/trust'
import { InvalidInputError } from '~/lib/input-error'
import { sessionEnded, toActionResult } from '~/server/action-result.server'
import { api, meOf } from '~/server/api-client'
import { setRefusalStatus } from '~/server/server-fn-errors.server'
import { currentAccessToken, requireAccessToken } from '~/server/session-token.server'
import { submitWithDocuments } from '~/server/verification-documents.server'

/** 先生として活動する (issue 15): the member's verification state, and the submission with its two images. */

export const getTeachingState = createServerFn({ method: 'GET' }).handler(async () =>
  api.getMyVerification(await requireAccessToken()),
)

const TEXT_FIELDS = ['legal_name', 'legal_name_kana', 'birth_date', 'career'] as const

/** The FormData of the form: four text fields and the two images (`face`, `document`). */
function verificationForm(input: unknown) {
  if (!(input instanceof FormData)) throw new InvalidInputError('入力内容を送信できませんでした')
  const text = Object.fromEntries(
    TEXT_FIELDS.map((k) => {
      const v = input.get(k)
      return [k, typeof v === 'string' ? v : '']
    }),
  ) as Record<(typeof TEXT_FIELDS)[number], string>
  const face = input.get('face')
  const document = input.get('document')
  return {
    text,
    face: face instanceof File && face.size > 0 ? face : undefined,
    document: document instanceof File && document.size > 0 ? document : undefined,
  }
}

const placeholderPath = `verifications/${'0'.repeat(32)}.webp`

export const submitTeacherVerification = createServerFn({ method: 'POST' })
  .validator(verificationForm)
  .handler(async ({ data }) => {
    const token = await currentAccessToken()
    if (!token) return sessionEnded()
    // The text is checked before any image is stored, so a typo never leaves an orphaned document behind.
    const fieldErrors: Record<string, string> = {}
    const parsed = SubmitVerificationBody.safeParse({
      ...data.text,
      face_path: placeholderPath,
      document_path: placeholderPath,
    })
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? '')
        fieldErrors[key] ??= issue.message
      }
    if (!data.face) fieldErrors.face = '顔写真を選択してください'
    if (!data.document) fieldErrors.document = '本人確認書類の画像を選択してください'
    if (Object.keys(fieldErrors).length > 0 || !parsed.success || !data.face || !data.document) {
      setRefusalStatus(400)
      return {
        ok: false as const,
        status: 400,
        code: 'invalid_request',
        message: '入力内容を確認してください',
        fieldErrors,
      }
    }
    // Who submits, before anything is decoded (the upload limit counts per member). A refusal (a suspended
    // account) is shown in the API's words, as the submission's own would be.
    const who = await toActionResult(async () => meOf(await api.getMe(token)))
    if (!who.ok) return who
    const me = who.data
    if (!me) {
      setRefusalStatus(404)
      return {
        ok: false as const,
        status: 404,
        code: 'unregistered',
        message: 'プロフィールを登録すると利用できます',
        fieldErrors: {},
      }
    }
    const submitted = await submitWithDocuments(me.id, data.face, data.document, async (paths) => {
      const result = await toActionResult(() => api.submitVerification(token, { ...parsed.data, ...paths }))
      return { result, keep: result.ok }
    })
    if (!submitted.ok && submitted.status === 429) {
      setRefusalStatus(429, 'rate_limited', submitted.retryAfterS)
      return {
        ok: false as const,
        status: 429,
        code: 'rate_limited',
        message: submitted.message,
        fieldErrors: {},
      }
    }
    if (!submitted.ok) {
      setRefusalStatus(400)
      return {
        ok: false as const,
        status: 400,
        code: 'invalid_image',
        message: submitted.message,
        fieldErrors: { [submitted.field]: submitted.message },
      }
    }
    return submitted.result
  })
