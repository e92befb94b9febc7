import { z } from 'zod'
import { HttpsUrl } from './class-management'
import { DateTime, line, paragraph } from './common'

/** POST /v1/organizations: create the caller's organisation (the caller becomes its owner). */
export const OrganizationInput = z
  .object({
    kind: z.enum(['corporation', 'group'], { error: '種別を選択してください' }),
    name: line(100),
    representative: line(50),
    url: HttpsUrl.nullable().optional(),
    description: paragraph(2000).optional(),
  })
  .strict()
export type OrganizationInput = z.infer<typeof OrganizationInput>

/**
 * PATCH /v1/organizations/me (owner only). `expected_updated_at`: the `updated_at` the form was opened with; a save
 * made since elsewhere makes this one 409 `organization_changed` instead of putting back what it changed.
 */
export const OrganizationPatch = OrganizationInput.partial()
  .extend({ expected_updated_at: DateTime.optional() })
  .strict()
export type OrganizationPatch = z.infer<typeof OrganizationPatch>

/** Dashes a phone's keyboard or a Japanese input method may type for the code's hyphen. */
const DASHES = /[\s\-‐‑‒–—―−ｰー]+/g

/**
 * An invitation code as its owner reads it out: full-width letters (an input method left on), lower case, spaces and
 * any dash are the same code; twelve characters typed without hyphens are grouped as codes are (`XXXX-XXXX-XXXX`).
 */
export function normalizeInvitationCode(typed: string): string {
  const code = typed.normalize('NFKC').toUpperCase().trim()
  const bare = code.replace(DASHES, '')
  if (bare.length === 12) return `${bare.slice(0, 4)}-${bare.slice(4, 8)}-${bare.slice(8)}`
  return code.replace(DASHES, '-')
}

/** POST /v1/org_users/join */
export const JoinOrganizationBody = z
  .object({
    invitation_code: z
      .string()
      .trim()
      .min(1, '招待コードを入力してください')
      .max(32, '招待コードが正しくありません')
      .transform(normalizeInvitationCode),
  })
  .strict()
export type JoinOrganizationBody = z.infer<typeof JoinOrganizationBody>

export const UserIdParams = z.object({
  user_id: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, '数値のIDを指定してください')
    .transform(Number),
})
