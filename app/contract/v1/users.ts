import { z } from 'zod'
import { DateTime, Id, line, PersonRef, paragraph, ScheduleSummary } from './common'

export const Role = z.enum(['parent', 'learner', 'teacher'])
export type Role = z.infer<typeof Role>

export const User = z.object({
  id: Id,
  sub: z.string(),
  email: z.string().nullable(),
  email_verified: z.boolean(),
  nickname: z.string(),
  name: z.string(),
  name_kana: z.string(),
  avatar_url: z.string().nullable(),
  introduction: z.string(),
  role: Role,
  profession_id: Id.nullable(),
  school_type_id: Id.nullable(),
  target_grade_id: Id.nullable(),
  is_teacher: z.boolean(),
  /** 本人確認済み: may publish classes and found an organisation (issue 15). */
  is_verified_teacher: z.boolean(),
  /** 運営 (operator): /admin. Granted only from the command line. */
  is_operator: z.boolean(),
  /** The 「ふりがな」 setting (issue 19): follows the member to every device they sign in on. */
  furigana: z.boolean(),
  created_at: DateTime,
})
export type User = z.infer<typeof User>

export const Learner = z.object({
  id: Id,
  nickname: z.string(),
  school_type_id: Id,
  target_grade_id: Id,
})
export type Learner = z.infer<typeof Learner>

export const Membership = z.object({
  id: Id,
  name: z.string(),
  kind: z.enum(['corporation', 'group']),
  role: z.enum(['owner', 'member']),
})

export const TeacherFigures = z.object({
  class_work_count: z.number().int().nonnegative(),
  published_class_work_count: z.number().int().nonnegative(),
  follower_count: z.number().int().nonnegative(),
  student_count: z.number().int().nonnegative(),
  upcoming_schedule_count: z.number().int().nonnegative(),
  summary: ScheduleSummary,
})

/** GET /v1/users/deep_me: the caller with their learners, organisation and (for teachers) figures. */
export const DeepMe = User.extend({
  learners: z.array(Learner),
  organization: Membership.nullable(),
  teacher: TeacherFigures.nullable(),
  following_count: z.number().int().nonnegative(),
  favorite_count: z.number().int().nonnegative(),
  upcoming_reservation_count: z.number().int().nonnegative(),
})
export type DeepMe = z.infer<typeof DeepMe>

export const Following = PersonRef.extend({
  introduction: z.string(),
  organization_name: z.string().nullable(),
  followed_at: DateTime,
})
export const FollowingList = z.array(Following)
export type Following = z.infer<typeof Following>

/** Katakana or hiragana with spaces and the long vowel mark. */
const kana = line(50).regex(
  /^[\p{Script=Katakana}\p{Script=Hiragana}ー・ 　]+$/u,
  'ふりがなはカタカナで入力してください',
)

/** A bundled image (/images/…) or an uploaded avatar (/uploads/avatars/<random>.png|jpg|webp). */
export const AvatarUrl = z
  .string()
  .max(500)
  .regex(
    /^(?:\/images\/(?!.*\.\.)[\w./-]+|\/uploads\/avatars\/[0-9a-f]{32}\.(?:png|jpg|webp))$/,
    '画像のパスが正しくありません',
  )

export const LearnerInput = z.object({
  nickname: line(20),
  school_type_id: Id,
  target_grade_id: Id,
})

const profileFields = {
  nickname: line(20),
  name: line(50),
  name_kana: kana,
  introduction: paragraph(2000).optional(),
  profession_id: Id.optional(),
  school_type_id: Id.optional(),
  target_grade_id: Id.optional(),
}

/** POST /v1/users: the register form. E-mail and its verification come from the access token, not the body. */
export const RegisterUserBody = z
  .object({
    ...profileFields,
    role: Role,
    learners: z.array(LearnerInput).max(10, '登録できるお子さまは10人までです').optional(),
    agreed_to_terms: z.literal(true, { error: '利用規約への同意が必要です' }),
  })
  .superRefine((v, ctx) => {
    if (v.role === 'learner') {
      if (v.school_type_id === undefined)
        ctx.addIssue({ code: 'custom', path: ['school_type_id'], message: '学校区分を選択してください' })
      if (v.target_grade_id === undefined)
        ctx.addIssue({ code: 'custom', path: ['target_grade_id'], message: '学年を選択してください' })
    } else if (v.profession_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['profession_id'], message: '職業を選択してください' })
    }
    if (v.role !== 'parent' && v.learners && v.learners.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['learners'], message: 'お子さまの登録は保護者のみできます' })
    }
  })
export type RegisterUserBody = z.input<typeof RegisterUserBody>

/**
 * PATCH /v1/users/me: any subset of the editable profile. Not is_teacher: teaching is turned on only by submitting
 * the identity verification (docs/decisions/0020), and never off here (booked lessons would lose their teacher),
 * so the strict schema refuses it (400) like any other field that is not the member's to set.
 */
export const UpdateUserBody = z
  .object({
    nickname: profileFields.nickname.optional(),
    name: profileFields.name.optional(),
    name_kana: kana.optional(),
    introduction: paragraph(2000).optional(),
    avatar_url: AvatarUrl.nullable().optional(),
    profession_id: Id.nullable().optional(),
    school_type_id: Id.nullable().optional(),
    target_grade_id: Id.nullable().optional(),
    furigana: z.boolean().optional(),
  })
  // No .refine() here, so forms can .pick() fields; the API refuses an empty body itself.
  .strict()
export type UpdateUserBody = z.input<typeof UpdateUserBody>

/** PUT /v1/users/me/furigana: the member's furigana mode alone (the answer has the same shape). */
export const FuriganaSetting = z.object({ furigana: z.boolean() }).strict()
export type FuriganaSetting = z.infer<typeof FuriganaSetting>

/** GET /v1/users/me when the token is valid but no profile exists yet. */
export const UNREGISTERED = 'unregistered'

/** POST /v1/users/me/learners */
export const CreateLearnerBody = LearnerInput.strict()
export type CreateLearnerBody = z.input<typeof CreateLearnerBody>

/** PATCH /v1/users/me/learners/{id}: any subset. */
export const UpdateLearnerBody = LearnerInput.partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: '変更する項目を指定してください' })
export type UpdateLearnerBody = z.input<typeof UpdateLearnerBody>

export const MAX_LEARNERS = 10
