import { createRoute } from '@hono/zod-openapi'
import { type MasterKind, MasterList, masterKinds } from '../../contract/v1/master'
import { type ApiApp, errors, json, type RouteDeps } from '../openapi'
import { masterList } from '../services/master'

const names: Record<MasterKind, string> = {
  categories: 'カテゴリ',
  school_types: '学校区分',
  professions: '職業',
  class_styles: '授業形式',
  target_grades: '対象学年',
  video_content_statuses: '動画コンテンツの状態',
}

export function registerMasterRoutes(app: ApiApp, deps: RouteDeps) {
  for (const kind of masterKinds) {
    const route = createRoute({
      method: 'get',
      path: `/master/${kind}`,
      tags: ['master'],
      summary: `${names[kind]}の一覧`,
      responses: { 200: json(MasterList, names[kind]), ...errors(503) },
    })
    app.openapi(route, async (c) => {
      c.header('Cache-Control', 'public, max-age=300')
      return c.json(await masterList(await deps.getDb(), kind), 200)
    })
  }
}
