/**
 * What a write server function answers: the data, or why the API refused (4xx, with its Japanese message and
 * stable code, and per-field messages when the input was wrong). 5xx still throw.
 */
export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; code: string; message: string; fieldErrors: Record<string, string> }

/** Per-field messages from a zod error's issues (`learners.0.nickname` → message), first one per field. */
export function fieldErrorsOf(issues: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (!Array.isArray(issues)) return out
  for (const issue of issues as { path?: PropertyKey[]; message?: string; code?: string }[]) {
    const key = issue.path?.map(String).join('.')
    if (!key || out[key]) continue
    out[key] =
      issue.code === 'invalid_type'
        ? key.endsWith('_id') || key.endsWith('_ids')
          ? '選択してください'
          : '入力してください'
        : (issue.message ?? '入力内容に誤りがあります')
  }
  return out
}
