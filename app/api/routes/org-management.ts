import { createRoute } from '@hono/zod-openapi'
import {
  JoinOrganizationBody,
  OrganizationInput,
  OrganizationPatch,
  UserIdParams,
} from '../../contract/v1/org-management'
import { InvitationCode, OrganizationDeepMe, OrgUserList } from '../../contract/v1/organizations'
import { requireUser } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import {
  createOrganization,
  joinOrganization,
  leaveOrganization,
  regenerateInvitationCode,
  removeMember,
  transferOwnership,
  updateOrganization,
} from '../services/org-management'
import { organizationDeepMe } from '../services/organizations'

const body = <T>(schema: T) => ({ content: { 'application/json': { schema } }, required: true })

/** Organisation management (issue #7). Owner-only operations are 404 for anyone else. */
export function registerOrgManagementRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)
  const tags = ['organizations']

  app.openapi(
    createRoute({
      method: 'post',
      path: '/organizations',
      tags,
      summary:
        '団体（法人・グループ）を作成してオーナーになる（本人確認済みの先生のみ：403 not_verified、所属済みなら 409 already_in_organization）',
      security: bearer,
      middleware: [member] as const,
      request: { body: body(OrganizationInput) },
      responses: {
        201: json(OrganizationDeepMe, '作成した団体'),
        ...errors(400, 401, 403, 409, 413, 422, 503),
      },
    }),
    async (c) => {
      const db = await deps.getDb()
      await createOrganization(db, c.var.user, c.req.valid('json'), deps.now())
      return c.json(await organizationDeepMe(db, c.var.user.id), 201)
    },
  )

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/organizations/me',
      tags,
      summary:
        '自分が代表の団体を変更する（オーナーのみ。expected_updated_at 以降にほかで保存されていれば 409 organization_changed）',
      security: bearer,
      middleware: [member] as const,
      request: { body: body(OrganizationPatch) },
      responses: {
        200: json(OrganizationDeepMe, '変更後の団体'),
        ...errors(400, 401, 404, 409, 413, 422, 503),
      },
    }),
    async (c) => {
      const db = await deps.getDb()
      await updateOrganization(db, c.var.user, c.req.valid('json'), deps.now())
      return c.json(await organizationDeepMe(db, c.var.user.id), 200)
    },
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/org_users/invitation_code/regenerate',
      tags,
      summary: '招待コードを作り直す（古いコードは使えなくなる、オーナーのみ）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(InvitationCode, '新しい招待コード'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await regenerateInvitationCode(await deps.getDb(), c.var.user), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/org_users/join',
      tags,
      summary:
        '招待コードで団体に参加する（先生のみ: 403 not_teacher、コード違い: 404 invalid_invitation_code、満員: 409 organization_full）',
      security: bearer,
      middleware: [member] as const,
      request: { body: body(JoinOrganizationBody) },
      responses: {
        200: json(OrganizationDeepMe, '参加した団体'),
        ...errors(400, 401, 403, 404, 409, 413, 503),
      },
    }),
    async (c) => {
      const db = await deps.getDb()
      await joinOrganization(db, c.var.user, c.req.valid('json'), deps.now())
      return c.json(await organizationDeepMe(db, c.var.user.id), 200)
    },
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/org_users/leave',
      tags,
      summary:
        '所属している団体を抜ける（メンバーのみ、自分のクラスも団体のクラスではなくなる。オーナーは 422 owner_cannot_leave）',
      security: bearer,
      middleware: [member] as const,
      responses: { 204: { description: '団体を抜けました' }, ...errors(401, 404, 422, 503) },
    }),
    async (c) => {
      await leaveOrganization(await deps.getDb(), c.var.user)
      return c.body(null, 204)
    },
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/org_users/{user_id}/transfer_ownership',
      tags,
      summary:
        '団体のオーナーをメンバーに譲る（オーナーのみ。自分はメンバーになる。本人確認が済んでいない相手は 422 member_not_verified）',
      security: bearer,
      middleware: [member] as const,
      request: { params: UserIdParams },
      responses: {
        200: json(OrganizationDeepMe, '譲ったあとの団体（自分はメンバー）'),
        ...errors(400, 401, 404, 422, 503),
      },
    }),
    async (c) => {
      const db = await deps.getDb()
      await transferOwnership(db, c.var.user, c.req.valid('param').user_id)
      return c.json(await organizationDeepMe(db, c.var.user.id), 200)
    },
  )

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/org_users/{user_id}',
      tags,
      summary: 'メンバーを団体から外す（オーナーのみ、オーナー自身は 422 cannot_remove_owner）',
      security: bearer,
      middleware: [member] as const,
      request: { params: UserIdParams },
      responses: { 200: json(OrgUserList, '残ったメンバー'), ...errors(400, 401, 404, 422, 503) },
    }),
    async (c) =>
      c.json(await removeMember(await deps.getDb(), c.var.user, c.req.valid('param').user_id), 200),
  )
}
