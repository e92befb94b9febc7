import { createServerFn } from '@tanstack/react-start'
import { CreateReportBody } from '~/contract/v1/trust'
import { memberActionResult } from '~/server/action-result.server'
import { api } from '~/server/api-client'

/** 通報する (issue 15): the API checks that the member can see the content, dedupes and rate-limits. */
export const sendReport = createServerFn({ method: 'POST' })
  .validator(CreateReportBody)
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.createReport(token, data))
  })
