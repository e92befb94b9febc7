import { createServerFn } from '@tanstack/react-start'
import { z } from 'zod'
import { CreateReviewBody } from '~/contract/v1/reviews'
import { memberActionResult } from '~/server/action-result.server'
import { api } from '~/server/api-client'
import { requireAccessToken } from '~/server/session-token.server'

/** The member's reservations: upcoming (not ended) and past, with the server's clock for the page. */
export const getAttendance = createServerFn({ method: 'GET' }).handler(async () => {
  const token = await requireAccessToken()
  const [upcoming, past] = await Promise.all([
    api.listPurchases(token, 'upcoming'),
    api.listPurchases(token, 'past'),
  ])
  return { upcoming, past, now: new Date().toISOString() }
})

/** Cancels one of the member's reservations (the API checks ownership and the 24-hour window). */
export const cancelReservation = createServerFn({ method: 'POST' })
  .validator(z.object({ purchase_id: z.number().int().positive() }))
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.cancelPurchase(token, data.purchase_id))
  })

/** Reviews an attended lesson once it has ended (the API checks ownership, the end and one per reservation). */
export const reviewLesson = createServerFn({ method: 'POST' })
  .validator(
    z
      .object({ purchase_id: z.number().int().positive().max(2_147_483_647), body: CreateReviewBody })
      .strict(),
  )
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.createReview(token, data.purchase_id, data.body))
  })
