import { z } from 'zod'

/**
 * Shared pieces of the /v1 contract. Plain zod (no hono import) so the BFF can validate responses
 * without pulling in the API's framework.
 */

export const Id = z.number().int().positive()
export const DateTime = z.iso.datetime({ offset: true })

/** A numeric id in a path or query string: digits only, no sign, no exponent, within int4. */
export const IdString = z
  .string()
  .regex(/^[1-9]\d{0,8}$/, '数値のIDを指定してください')
  .transform(Number)

export const IdParams = z.object({ id: IdString })

/** `page` in a query string. */
export const PageString = z
  .string()
  .regex(/^[1-9]\d{0,3}$/, 'ページ番号が正しくありません')
  .transform(Number)

export const ErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  issues: z.array(z.unknown()).optional(),
})
export type ErrorBody = z.infer<typeof ErrorBody>

export function paged<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    per_page: z.number().int().positive(),
    total_pages: z.number().int().nonnegative(),
  })
}

/** One lesson's time: a single schedule is one lesson, a course run (全N回) has N of them. */
export const Lesson = z.object({ started_at: DateTime, ended_at: DateTime })
export type Lesson = z.infer<typeof Lesson>

export const MasterRef = z.object({ id: Id, name: z.string() })
export type MasterRef = z.infer<typeof MasterRef>

/** Spec §3 summary of a class's schedule entries. */
export const ScheduleSummary = z.object({
  times_held: z.number().int().nonnegative(),
  counts_purchased: z.number().int().nonnegative(),
  has_reservation: z.boolean(),
})
export type ScheduleSummary = z.infer<typeof ScheduleSummary>

/** What anyone may see of a person: never an e-mail address or a learner's details. */
export const PersonRef = z.object({
  id: Id,
  nickname: z.string(),
  avatar_url: z.string().nullable(),
})
export type PersonRef = z.infer<typeof PersonRef>

/** Direction marks and overrides: they make a name read as another ('\u202eフッタス営運' shows as 運営スタッフ). */
const DIRECTION_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** Single-line text typed by a user: trimmed, no control characters. */
export const line = (max: number) =>
  z
    .string()
    // Removed rather than refused: a form sends saved text back unchanged, and a mark pasted in long ago must not
    // block an edit of another field.
    .overwrite((text) => text.replace(DIRECTION_CONTROLS, ''))
    .trim()
    .min(1, '入力してください')
    .max(max, `${max}文字以内で入力してください`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
    .regex(/^[^\u0000-\u001f\u007f]*$/, '使用できない文字が含まれています')

/** A search word or label (optional filters): any length up to `max`, no control characters. */
export const searchText = (max: number, message = `${max}文字以内で入力してください`) =>
  z
    .string()
    .max(max, message)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
    .regex(/^[^\u0000-\u001f\u007f]*$/, '使用できない文字が含まれています')

/**
 * Multi-line text typed by a user (line breaks kept). Direction overrides removed as in line(): shown reversed,
 * '\u202e8765-4321-090' reads as a phone number the contact check (which reads the stored order) never sees.
 */
export const paragraph = (max: number) =>
  z
    .string()
    .overwrite((text) => text.replace(DIRECTION_CONTROLS, ''))
    .max(max, `${max}文字以内で入力してください`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: tabs and line breaks are allowed, other controls are not
    .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, '使用できない文字が含まれています')
