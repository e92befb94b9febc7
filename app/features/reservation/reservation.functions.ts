import { createServerFn } from '@tanstack/react-start'
import { z } from 'zod'
import { Id } from '~/contract/v1/common'
import { CreatePurchaseBody } from '~/contract/v1/purchases'
import { idInput } from '~/lib/ids'
import { memberActionResult } from '~/server/action-result.server'
import { ApiError, api } from '~/server/api-client'
import { currentAccessToken } from '~/server/session-token.server'

/** Whom the signed-in member can reserve for (themself, their learners) and what they hold. Null for visitors. */
export const getReservationOptions = createServerFn({ method: 'GET' }).handler(async () => {
  const token = await currentAccessToken()
  if (!token) return null
  try {
    const [me, upcoming, waitlist, grades] = await Promise.all([
      api.getDeepMe(token),
      api.listPurchases(token, 'upcoming'),
      api.listWaitlist(token),
      api.getMaster('target_grades'),
    ])
    const grade = (id: number | null) => {
      const found = id === null ? undefined : grades?.find((g) => g.id === id)
      return found ? { id: found.id, name: found.name } : null
    }
    return {
      nickname: me.nickname,
      /** The grade of whoever attends (to warn about a class for other grades): a learner's own, not a parent's. */
      grade: me.role === 'learner' ? grade(me.target_grade_id) : null,
      learners: me.learners.map((l) => ({ id: l.id, nickname: l.nickname, grade: grade(l.target_grade_id) })),
      /**
       * Seats the member already holds: schedule id and who (null = the member themself); a seat still being paid
       * for carries its payment (issue 17).
       */
      held: upcoming
        .filter((p) => p.status === 'reserved' || p.status === 'pending')
        .map((p) => ({
          schedule_id: p.schedule.id,
          learner_id: p.attendee.learner_id,
          pending_payment_id: p.status === 'pending' ? (p.payment?.id ?? null) : null,
        })),
      /** The member's キャンセル待ち: waiting (with their place in line) or offered (a seat held until then). */
      waitlist: waitlist.map((w) => ({
        id: w.id,
        schedule_id: w.schedule.id,
        status: w.status,
        position: w.position,
        offer_expires_at: w.offer_expires_at,
      })),
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
    return memberActionResult((token) => api.createPurchase(token, data))
  })

/** キャンセル待ちする on a full schedule (the API checks that it is full, upcoming and not the member's own). */
export const joinWaitlist = createServerFn({ method: 'POST' })
  .validator(z.object({ schedule_id: Id, learner_id: Id.nullable() }).strict())
  .handler(async ({ data }) => {
    return memberActionResult((token) =>
      api.joinWaitlist(
        token,
        data.schedule_id,
        data.learner_id === null ? {} : { learner_id: data.learner_id },
      ),
    )
  })

/** Leaves the line (a seat held for the member goes to the next). */
export const leaveWaitlist = createServerFn({ method: 'POST' })
  .validator(idInput)
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.leaveWaitlist(token, data))
  })
