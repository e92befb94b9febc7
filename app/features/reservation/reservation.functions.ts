import { createServerFn } from '@tanstack/react-start'
import { CreatePurchaseBody } from '~/contract/v1/purchases'
import { toActionResult } from '~/server/action-result.server'
import { ApiError, api } from '~/server/api-client'
import { currentAccessToken, requireAccessToken } from '~/server/session-token.server'

/** Whom the signed-in member can reserve for (themself, their learners) and what they hold. Null for visitors. */
export const getReservationOptions = createServerFn({ method: 'GET' }).handler(async () => {
  const token = await currentAccessToken()
  if (!token) return null
  try {
    const [me, upcoming] = await Promise.all([api.getDeepMe(token), api.listPurchases(token, 'upcoming')])
    return {
      nickname: me.nickname,
      learners: me.learners.map((l) => ({ id: l.id, nickname: l.nickname })),
      /** Seats the member already holds: schedule id and who (null = the member themself). */
      held: upcoming
        .filter((p) => p.status === 'reserved')
        .map((p) => ({ schedule_id: p.schedule.id, learner_id: p.attendee.learner_id })),
    }
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return null
    throw error
  }
})

/** Reserves a seat (POST /v1/purchases); full, canceled, started or duplicate come back as a refusal. */
export const reserveSchedule = createServerFn({ method: 'POST' })
  .validator(CreatePurchaseBody)
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    return toActionResult(() => api.createPurchase(token, data))
  })
