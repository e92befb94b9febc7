import { createServerFn } from '@tanstack/react-start'
import { getRequest } from '@tanstack/react-start/server'
import { z } from 'zod'
import { AdminNoticeQuery, AuditQuery, CreateNoticeBody } from '~/contract/v1/admin'
import {
  AdminReportQuery,
  DecideVerificationBody,
  LiftSuspensionBody,
  ResolveReportBody,
} from '~/contract/v1/trust'
import { idInput } from '~/lib/ids'
import { memberActionResult } from '~/server/action-result.server'
import { api } from '~/server/api-client'
import { requireAccessToken } from '~/server/session-token.server'

/**
 * 運営管理 (issue 15). Each function passes the member's token to /v1/admin/*, which checks the operator role on
 * every call (the route guard is UX only); the browser's address goes along for the audit log.
 */
const clientAddress = () => getRequest().headers.get('x-real-ip') ?? undefined

export const getAdminNotices = createServerFn({ method: 'GET' })
  .validator(AdminNoticeQuery)
  .handler(async ({ data }) => api.adminListNotices(await requireAccessToken(), data.page))

export const createAdminNotice = createServerFn({ method: 'POST' })
  .validator(CreateNoticeBody)
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.adminCreateNotice(token, data, clientAddress()))
  })

export const withdrawAdminNotice = createServerFn({ method: 'POST' })
  .validator(idInput)
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.adminWithdrawNotice(token, data, clientAddress()))
  })

/** A day typed into the address that no calendar has (2026-02-30) is left out, like an unknown action. */
const dayOrNothing = z
  .string()
  .optional()
  .transform((v) => (z.iso.date().safeParse(v).success ? v : undefined))

export const getAdminAudit = createServerFn({ method: 'GET' })
  .validator(
    AuditQuery.extend({
      actor_id: z.coerce.number().int().positive().optional(),
      from: dayOrNothing,
      to: dayOrNothing,
    }),
  )
  .handler(async ({ data }) => {
    const page = await api.adminAudit(await requireAccessToken(), data)
    // before/after are any JSON: shown as text.
    const text = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v))
    return {
      ...page,
      entries: page.entries.map((e) => ({ ...e, before: text(e.before), after: text(e.after) })),
    }
  })

export const getHeldMessages = createServerFn({ method: 'GET' }).handler(async () =>
  api.adminHeldMessages(await requireAccessToken()),
)

export const moderateMessage = createServerFn({ method: 'POST' })
  .validator(
    z
      .object({ id: z.number().int().positive().max(2_147_483_647), decision: z.enum(['release', 'delete']) })
      .strict(),
  )
  .handler(async ({ data }) => {
    return memberActionResult((token) =>
      api.adminModerateMessage(token, data.id, data.decision, clientAddress()),
    )
  })

export const getAdminVerifications = createServerFn({ method: 'GET' })
  .validator(
    z
      .object({
        status: z.enum(['pending', 'approved', 'rejected']),
        page: z.number().int().min(1).max(1000).default(1),
      })
      .strict(),
  )
  .handler(async ({ data }) => api.adminListVerifications(await requireAccessToken(), data.status, data.page))

export const decideVerification = createServerFn({ method: 'POST' })
  .validator(
    z.object({ id: z.number().int().positive().max(2_147_483_647), body: DecideVerificationBody }).strict(),
  )
  .handler(async ({ data }) => {
    return memberActionResult((token) =>
      api.adminDecideVerification(token, data.id, data.body, clientAddress()),
    )
  })

export const getAdminReports = createServerFn({ method: 'GET' })
  .validator(AdminReportQuery)
  // With the server's clock: the page says how long each report has waited by it, not by the device's (0055).
  .handler(async ({ data }) => ({
    reports: await api.adminListReports(await requireAccessToken(), data),
    now: new Date().toISOString(),
  }))

export const resolveReport = createServerFn({ method: 'POST' })
  .validator(
    z.object({ id: z.number().int().positive().max(2_147_483_647), body: ResolveReportBody }).strict(),
  )
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.adminResolveReport(token, data.id, data.body, clientAddress()))
  })

export const getAdminSuspensions = createServerFn({ method: 'GET' })
  .validator(z.object({ page: z.number().int().min(1).max(1000) }).strict())
  .handler(async ({ data }) => api.adminListSuspensions(await requireAccessToken(), data.page))

export const liftSuspension = createServerFn({ method: 'POST' })
  .validator(
    z.object({ user_id: z.number().int().positive().max(2_147_483_647), body: LiftSuspensionBody }).strict(),
  )
  .handler(async ({ data }) => {
    return memberActionResult((token) =>
      api.adminLiftSuspension(token, data.user_id, data.body, clientAddress()),
    )
  })
