import { createRoute, z } from '@hono/zod-openapi'
import { IdParams } from '../../contract/v1/common'
import { CustomerList, MonthQuery, OrganizationSales, Receipt, SalesReport } from '../../contract/v1/sales'
import { attachmentDisposition } from '../../lib/csv'
import { requireUser } from '../auth'
import { invalidRequest } from '../errors'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import { customers, organizationSales, receipt, salesCsv, salesReport } from '../services/sales'

/** Sales and customer management (issue #7); registered before the teacher routes (fixed paths first). */
export function registerSalesRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)
  const tags = ['sales']
  const query = { query: MonthQuery }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/teachers/sales',
      tags,
      summary: '月別の売上（クラス別・予約ごと、キャンセルは返金として別集計）',
      security: bearer,
      middleware: [member] as const,
      request: query,
      responses: { 200: json(SalesReport, '売上'), ...errors(400, 401, 403, 503) },
    }),
    async (c) =>
      c.json(await salesReport(await deps.getDb(), c.var.user, c.req.valid('query').month, deps.now()), 200),
  )

  // CSV is not JSON: documented in the registry, served by a plain handler.
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/teachers/sales.csv',
    tags,
    summary: '月別の売上 CSV（UTF-8 BOM 付き、ヘッダー行あり、RFC 4180）',
    security: bearer,
    request: query,
    responses: {
      200: { description: 'CSV', content: { 'text/csv': { schema: z.string() } } },
      ...errors(400, 401, 403, 422, 503),
    },
  })
  app.get('/teachers/sales.csv', member, async (c) => {
    const parsed = MonthQuery.safeParse({ month: c.req.query('month') })
    if (!parsed.success) throw invalidRequest(parsed.error.issues[0]?.message)
    const { month, bytes } = await salesCsv(await deps.getDb(), c.var.user, parsed.data.month, deps.now())
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': attachmentDisposition(`売上_${month}.csv`, `sales-${month}.csv`),
      'Cache-Control': 'private, no-store',
    })
  })

  app.openapi(
    createRoute({
      method: 'get',
      path: '/teachers/sales/purchases/{id}',
      tags,
      summary: '領収書（自分のクラスの購入 1 件）',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams },
      responses: { 200: json(Receipt, '領収書'), ...errors(400, 401, 403, 404, 503) },
    }),
    async (c) => c.json(await receipt(await deps.getDb(), c.var.user, c.req.valid('param').id), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/teachers/customers',
      tags,
      summary: '顧客（自分のクラスを予約している会員、予約数・最終受講日）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(CustomerList, '顧客'), ...errors(401, 403, 503) },
    }),
    async (c) => c.json(await customers(await deps.getDb(), c.var.user, deps.now()), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/organizations/me/sales',
      tags,
      summary: '団体の月別売上（メンバー別、オーナーのみ）',
      security: bearer,
      middleware: [member] as const,
      request: query,
      responses: { 200: json(OrganizationSales, '団体の売上'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(
        await organizationSales(await deps.getDb(), c.var.user, c.req.valid('query').month, deps.now()),
        200,
      ),
  )
}
