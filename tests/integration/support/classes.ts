import type { CallResult, TestApi } from './api'

/** Master ids a class needs (the first of each list; two grades), read through the API as a client would. */
export async function loadMasters(api: TestApi) {
  const [cats, styles, grades, schoolTypes] = await Promise.all(
    ['categories', 'class_styles', 'target_grades', 'school_types'].map(
      async (k) => (await api.call('GET', `/v1/master/${k}`)).body,
    ),
  )
  return {
    category: cats[0].id as number,
    style: styles[0].id as number,
    grades: [grades[0].id as number, grades[1].id as number],
    schoolType: schoolTypes[0].id as number,
  }
}

export type Masters = Awaited<ReturnType<typeof loadMasters>>

/** POST /v1/teachers/class_works as `sub`: a free one-hour class for 5 with a random title, unless overridden. */
export function postClass(
  api: TestApi,
  masters: Masters,
  sub: string,
  overrides: Record<string, unknown> = {},
): Promise<CallResult> {
  return api.as(sub, 'POST', '/v1/teachers/class_works', {
    title: `テスト教室 ${Math.random().toString(36).slice(2, 8)}`,
    description: '説明',
    category_id: masters.category,
    class_style_id: masters.style,
    target_grade_ids: [masters.grades[0]],
    price: 0,
    capacity: 5,
    duration_minutes: 60,
    ...overrides,
  })
}

/** POST a one-hour schedule starting at `start` to one of `sub`'s classes. */
export function postSchedule(api: TestApi, sub: string, classId: number, start: Date): Promise<CallResult> {
  return api.as(sub, 'POST', `/v1/teachers/class_works/${classId}/schedules`, {
    started_at: start.toISOString(),
    ended_at: new Date(start.getTime() + 3_600_000).toISOString(),
  })
}
