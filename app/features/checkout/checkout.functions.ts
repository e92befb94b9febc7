import { createServerFn } from '@tanstack/react-start'
import { z } from 'zod'
import { Id } from '~/contract/v1/common'
import { TestCardInput } from '~/contract/v1/payments'
import { memberActionResult } from '~/server/action-result.server'
import { ApiError, api } from '~/server/api-client'
import { getConfig } from '~/server/config'
import { requireAccessToken } from '~/server/session-token.server'

/**
 * The checkout page (issue 17): the held seat, its price with tax, and the payment. Null when the payment is not the
 * caller's. `stripeKey` is the publishable key when Stripe is configured (the page then pays with Stripe.js).
 */
export const getCheckout = createServerFn({ method: 'GET' })
  .validator(z.object({ id: Id }))
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    try {
      const checkout = await api.getCheckout(token, data.id)
      return checkout ? { checkout, stripeKey: getConfig().stripe?.publishableKey ?? null } : null
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null
      throw error
    }
  })

/** Pays with the embedded provider's test card; a refused card comes back as a refusal (402) to show. */
export const payWithCard = createServerFn({ method: 'POST' })
  .validator(z.object({ id: Id, card: TestCardInput }).strict())
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.confirmPayment(token, data.id, { card: data.card }))
  })

/** After Stripe.js confirmed the payment in the browser: reads the outcome on the server. */
export const confirmStripePayment = createServerFn({ method: 'POST' })
  .validator(z.object({ id: Id }).strict())
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.confirmPayment(token, data.id, {}))
  })

/** 支払いをやめる: the held seat goes back at once. */
export const giveUpCheckout = createServerFn({ method: 'POST' })
  .validator(z.object({ purchaseId: Id }).strict())
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.cancelPurchase(token, data.purchaseId))
  })
