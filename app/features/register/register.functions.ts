import { createServerFn } from '@tanstack/react-start'
import { RegisterUserBody } from '~/contract/v1/users'
import { sessionEnded } from '~/server/action-result.server'
import { ApiError, api } from '~/server/api-client'
import { setRefusalStatus } from '~/server/server-fn-errors.server'
import { currentAccessToken } from '~/server/session-token.server'

/** The master lists the register form offers. */
export const getRegisterOptions = createServerFn({ method: 'GET' }).handler(async () => {
  const [schoolTypes, targetGrades, professions] = await Promise.all([
    api.getMaster('school_types'),
    api.getMaster('target_grades'),
    api.getMaster('professions'),
  ])
  return { schoolTypes: schoolTypes ?? [], targetGrades: targetGrades ?? [], professions: professions ?? [] }
})

export type RegisterResult =
  | { ok: true }
  | { ok: false; message: string; fieldErrors: Record<string, string> }

/** Creates the caller's profile (POST /v1/users). E-mail and its verification come from the access token. */
export const registerUser = createServerFn({ method: 'POST' })
  .validator(RegisterUserBody)
  .handler(async ({ data }): Promise<RegisterResult> => {
    const token = await currentAccessToken()
    if (!token) return sessionEnded()
    try {
      await api.registerUser(token, data)
      return { ok: true }
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        setRefusalStatus(error.status, error.code)
        const fieldErrors: Record<string, string> = {}
        for (const issue of (error.issues ?? []) as { path?: (string | number)[]; message?: string }[]) {
          const key = issue.path?.join('.')
          if (key && issue.message && !fieldErrors[key]) fieldErrors[key] = issue.message
        }
        return { ok: false, message: error.message, fieldErrors }
      }
      throw error
    }
  })
