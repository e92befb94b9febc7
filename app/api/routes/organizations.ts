import { createRoute } from '@hono/zod-openapi'
import { InvitationCode, OrganizationDeepMe, OrgUserList } from '../../contract/v1/organizations'
import { requireUser } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import { invitationCode, organizationDeepMe, orgUserList } from '../services/organizations'

export function registerOrganizationRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)

  app.openapi(
    createRoute({
      method: 'get',
      path: '/organizations/deep_me',
      tags: ['organizations'],
      summary: '所属している団体の詳細（招待コードはオーナーのみ）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(OrganizationDeepMe, '団体'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await organizationDeepMe(await deps.getDb(), c.var.user.id), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/org_users',
      tags: ['organizations'],
      summary: '所属団体のメンバー一覧',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(OrgUserList, 'メンバー'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await orgUserList(await deps.getDb(), c.var.user.id), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/org_users/invitation_code',
      tags: ['organizations'],
      summary: '団体の招待コード（オーナーのみ）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(InvitationCode, '招待コード'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await invitationCode(await deps.getDb(), c.var.user.id), 200),
  )
}
