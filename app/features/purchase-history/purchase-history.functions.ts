import { createServerFn } from '@tanstack/react-start'
import { z } from 'zod'
import { Id } from '~/contract/v1/common'
import { ReceiptNameBody } from '~/contract/v1/payments'
import { Month } from '~/contract/v1/sales'
import { memberActionResult } from '~/server/action-result.server'
import { ApiError, api } from '~/server/api-client'
import { requireAccessToken } from '~/server/session-token.server'

/** 購入履歴 (issue 17): the member's payments and refunds of a month. */
export const getPaymentHistory = createServerFn({ method: 'GET' })
  .validator(z.object({ month: Month.optional() }))
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    return (await api.getPaymentHistory(token, data.month)) ?? null
  })

/** A 領収書; null when it is not the caller's or not paid. */
export const getPaymentReceipt = createServerFn({ method: 'GET' })
  .validator(z.object({ id: Id }))
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    try {
      return (await api.getPaymentReceipt(token, data.id)) ?? null
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null
      throw error
    }
  })

/** The 宛名 of a receipt, once. */
export const setReceiptName = createServerFn({ method: 'POST' })
  .validator(z.object({ id: Id, body: ReceiptNameBody }).strict())
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.setReceiptName(token, data.id, data.body))
  })
