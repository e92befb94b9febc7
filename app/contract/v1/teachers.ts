import { z } from 'zod'
import { Id, MasterRef, PageString, ScheduleSummary } from './common'
import { RatingSummary } from './reviews'

/** GET /v1/teachers/{id}: only what a teacher shows in public (real name and photo, no contact details). */
export const TeacherProfile = z.object({
  id: Id,
  nickname: z.string(),
  name: z.string(),
  avatar_url: z.string().nullable(),
  introduction: z.string(),
  profession: MasterRef.nullable(),
  organization: z.object({ id: Id, name: z.string(), kind: z.enum(['corporation', 'group']) }).nullable(),
  follower_count: z.number().int().nonnegative(),
  class_work_count: z.number().int().nonnegative(),
  summary: ScheduleSummary,
  /** 本人確認済み: an operator checked the teacher's identity document (issue 15). */
  is_verified: z.boolean(),
  /** Across the teacher's published classes (issue 16). */
  rating: RatingSummary,
})
export type TeacherProfile = z.infer<typeof TeacherProfile>

/**
 * GET /v1/teachers/{id}/class_works?page=N: one page of the teacher's public classes, newest first. A teacher may have
 * thousands; the total is the profile's class_work_count.
 */
export const TeacherClassWorksQuery = z.object({ page: PageString.optional() })
export { TEACHER_CLASSES_PER_PAGE } from '../../lib/page-sizes'
