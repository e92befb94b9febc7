import { z } from 'zod'
import { DateTime, Id } from './common'

export const OrgUser = z.object({
  user_id: Id,
  nickname: z.string(),
  /**
   * The member's real name: for the owner (who manages the members), for the member themself, and for a verified
   * teacher (whose checked name their public page shows). Null to other members: joining needs no verification.
   */
  name: z.string().nullable(),
  avatar_url: z.string().nullable(),
  role: z.enum(['owner', 'member']),
  joined_at: DateTime,
  class_work_count: z.number().int().nonnegative(),
})
export type OrgUser = z.infer<typeof OrgUser>
export const OrgUserList = z.array(OrgUser)

/** GET /v1/organizations/deep_me: the organisation the caller owns or belongs to. */
export const OrganizationDeepMe = z.object({
  id: Id,
  kind: z.enum(['corporation', 'group']),
  name: z.string(),
  representative: z.string(),
  url: z.string().nullable(),
  description: z.string(),
  owner_id: Id,
  my_role: z.enum(['owner', 'member']),
  /** Only the owner sees the invitation code. */
  invitation_code: z.string().nullable(),
  members: z.array(OrgUser),
  class_work_count: z.number().int().nonnegative(),
  published_class_work_count: z.number().int().nonnegative(),
  created_at: DateTime,
  /** When the organisation's own fields were last saved (the edit form sends it back as expected_updated_at). */
  updated_at: DateTime,
})
export type OrganizationDeepMe = z.infer<typeof OrganizationDeepMe>

export const InvitationCode = z.object({ invitation_code: z.string() })
export type InvitationCode = z.infer<typeof InvitationCode>
