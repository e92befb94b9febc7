import { createServerFn } from '@tanstack/react-start'
import { getRequest } from '@tanstack/react-start/server'
import { z } from 'zod'
import { Id } from '~/contract/v1/common'
import { BankAccountInput } from '~/contract/v1/payments'
import { Month } from '~/contract/v1/sales'
import { memberActionResult } from '~/server/action-result.server'
import { ApiError, api, meOf } from '~/server/api-client'
import { requireAccessToken } from '~/server/session-token.server'

/** Whether the caller teaches; a non-teacher's sales page explains how to become one. */
async function teacherToken() {
  const token = await requireAccessToken()
  const me = meOf(await api.getMe(token))
  return { token, isTeacher: me?.is_teacher ?? false }
}

export const getSales = createServerFn({ method: 'GET' })
  .validator(z.object({ month: Month.optional() }))
  .handler(async ({ data }) => {
    const { token, isTeacher } = await teacherToken()
    if (!isTeacher) return { isTeacher, report: null }
    return { isTeacher, report: await api.getSales(token, data.month) }
  })

export const getCustomers = createServerFn({ method: 'GET' }).handler(async () => {
  const { token, isTeacher } = await teacherToken()
  return isTeacher ? await api.listCustomers(token) : []
})

/** A receipt; null when the purchase is not of the caller's classes. */
export const getReceipt = createServerFn({ method: 'GET' })
  .validator(z.object({ id: Id }))
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    try {
      return await api.getReceipt(token, data.id)
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return null
      throw error
    }
  })

/** The month's payout statement (issue 17); null for a member who does not teach. */
export const getPayouts = createServerFn({ method: 'GET' })
  .validator(z.object({ month: Month.optional() }))
  .handler(async ({ data }) => {
    const { token, isTeacher } = await teacherToken()
    if (!isTeacher) return null
    return (await api.getPayouts(token, data.month)) ?? null
  })

/** The payout account, masked; null until set or for a non-teacher. */
export const getBankAccount = createServerFn({ method: 'GET' }).handler(async () => {
  const { token, isTeacher } = await teacherToken()
  if (!isTeacher) return null
  return (await api.getBankAccount(token)) ?? null
})

export const saveBankAccount = createServerFn({ method: 'POST' })
  .validator(BankAccountInput)
  .handler(async ({ data }) => {
    // The browser's address, for the audit entry a change of payout account writes.
    const address = getRequest().headers.get('x-real-ip') ?? undefined
    return memberActionResult((token) => api.saveBankAccount(token, data, address))
  })
