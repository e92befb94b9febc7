import { createServerFn } from '@tanstack/react-start'
import { z } from 'zod'
import { Id } from '~/contract/v1/common'
import { JoinOrganizationBody, OrganizationInput, OrganizationPatch } from '~/contract/v1/org-management'
import { Month } from '~/contract/v1/sales'
import { toActionResult } from '~/server/action-result.server'
import { api, meOf } from '~/server/api-client'
import { currentOrganization, requireSession } from '~/server/organization-me.server'

/** The caller's organisation (cached per session), whether they teach, and the owner's extras. */
export const getOrganizationPage = createServerFn({ method: 'GET' })
  .validator(z.object({ month: Month.optional() }))
  .handler(async ({ data }) => {
    const session = await requireSession()
    const [me, org] = await Promise.all([api.getMe(session.token).then(meOf), currentOrganization(session)])
    const isOwner = org?.my_role === 'owner'
    // deep_me is cached per session; the member list is read fresh, so a teacher who just joined shows at once,
    // and so is the owner's invitation code (its own call, spec §7), so a code regenerated elsewhere shows too.
    const [members, sales, code] = await Promise.all([
      org ? api.listOrgUsers(session.token) : undefined,
      isOwner ? api.getOrganizationSales(session.token, data.month) : null,
      isOwner ? api.getInvitationCode(session.token) : null,
    ])
    return {
      isTeacher: me?.is_teacher ?? false,
      // Only an approved teacher may create one (the API answers 403 not_verified otherwise): no button for others.
      canCreate: me?.is_verified_teacher ?? false,
      org:
        org && members
          ? { ...org, members, invitation_code: code?.invitation_code ?? org.invitation_code }
          : org,
      sales,
    }
  })

/**
 * /profile/edit_organization: the organisation the caller owns (null: create one; member: read only), and whether
 * they may create one (an approved teacher).
 */
export const getOrganizationForEdit = createServerFn({ method: 'GET' }).handler(async () => {
  const session = await requireSession()
  const [me, org] = await Promise.all([api.getMe(session.token).then(meOf), currentOrganization(session)])
  return { org, canCreate: me?.is_verified_teacher ?? false, isTeacher: me?.is_teacher ?? false }
})

export const createOrganization = createServerFn({ method: 'POST' })
  .validator(OrganizationInput)
  .handler(({ data }) =>
    toActionResult(async () => {
      const session = await requireSession()
      return (await api.createOrganization(session.token, data)).id
    }),
  )

export const updateOrganization = createServerFn({ method: 'POST' })
  .validator(OrganizationPatch)
  .handler(({ data }) =>
    toActionResult(async () => {
      const session = await requireSession()
      return (await api.updateOrganization(session.token, data)).id
    }),
  )

export const regenerateCode = createServerFn({ method: 'POST' }).handler(() =>
  toActionResult(async () => {
    const session = await requireSession()
    return (await api.regenerateInvitationCode(session.token)).invitation_code
  }),
)

export const removeMember = createServerFn({ method: 'POST' })
  .validator(z.object({ userId: Id }))
  .handler(({ data }) =>
    toActionResult(async () => {
      const session = await requireSession()
      return (await api.removeOrgUser(session.token, data.userId)).length
    }),
  )

export const transferOwnership = createServerFn({ method: 'POST' })
  .validator(z.object({ userId: Id }))
  .handler(({ data }) =>
    toActionResult(async () => {
      const session = await requireSession()
      return (await api.transferOrgOwnership(session.token, data.userId)).my_role
    }),
  )

export const joinOrganization = createServerFn({ method: 'POST' })
  .validator(JoinOrganizationBody)
  .handler(({ data }) =>
    toActionResult(async () => {
      const session = await requireSession()
      return (await api.joinOrganization(session.token, data)).name
    }),
  )

export const leaveOrganization = createServerFn({ method: 'POST' }).handler(() =>
  toActionResult(async () => {
    const session = await requireSession()
    await api.leaveOrganization(session.token)
    return true
  }),
)
