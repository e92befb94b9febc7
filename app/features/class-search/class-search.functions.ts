import { createServerFn } from '@tanstack/react-start'
import { toClassCardView } from '~/lib/card-view'
import type { DayTime, Weekday } from '~/lib/request-slots'
import { api } from '~/server/api-client'
import { parseClassSearch } from './search-params'

/**
 * POST /v1/class_works/search with the page's typed search parameters. The validator is the same tolerant
 * parser as the URL's (zod/mini), so nothing heavier ships to the browser; the API validates again.
 * Null when the API could not answer (the page says so instead of failing). The cards carry only what they show.
 */
export const searchClasses = createServerFn({ method: 'GET' })
  .validator((input: unknown) => parseClassSearch((input ?? {}) as Record<string, unknown>))
  .handler(async ({ data }) => {
    const { weekday, time, ...rest } = data
    const body = {
      ...rest,
      ...(weekday ? { weekday: weekday.split(',') as Weekday[] } : {}),
      ...(time ? { time: time.split(',') as DayTime[] } : {}),
    }
    const result = await api.searchClassWorks(body)
    return result ? { ...result, items: result.items.map(toClassCardView) } : null
  })

/** The master lists the filters offer. */
export const getSearchOptions = createServerFn({ method: 'GET' }).handler(async () => {
  const [categories, targetGrades, classStyles] = await Promise.all([
    api.getMaster('categories'),
    api.getMaster('target_grades'),
    api.getMaster('class_styles'),
  ])
  return { categories: categories ?? [], targetGrades: targetGrades ?? [], classStyles: classStyles ?? [] }
})
