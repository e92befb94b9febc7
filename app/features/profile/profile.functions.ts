import { createServerFn } from '@tanstack/react-start'
import { api } from '~/server/api-client'
import { requireAccessToken } from '~/server/session-token.server'

/** The signed-in member's basic information (GET /v1/users/deep_me) with the master lists to name its ids. */
export const getProfile = createServerFn({ method: 'GET' }).handler(async () => {
  const token = await requireAccessToken()
  const [me, schoolTypes, targetGrades, professions] = await Promise.all([
    api.getDeepMe(token),
    api.getMaster('school_types'),
    api.getMaster('target_grades'),
    api.getMaster('professions'),
  ])
  if (!me) throw Object.assign(new Error('プロフィールを読み込めませんでした'), { status: 502 })
  return {
    me,
    masters: {
      schoolTypes: schoolTypes ?? [],
      targetGrades: targetGrades ?? [],
      professions: professions ?? [],
    },
  }
})
