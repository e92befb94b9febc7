import { createServerFn } from '@tanstack/react-start'
import { CreateReportBody } from '~/contract/v1/trust'
import { toActionResult } from '~/server/action-result.server'
import { api } from '~/server/api-client'
import { requireAccessToken } from '~/server/session-token.server'

/** 通報する (issue 15): the API checks that the member can see the content, dedupes and rate-limits. */
export const sendReport = createServerFn({ method: 'POST' })
  .validator(CreateReportBody)
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    return toActionResult(() => api.createReport(token, data))
  })
