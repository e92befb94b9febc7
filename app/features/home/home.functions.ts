import { createServerFn } from '@tanstack/react-start'
import { toClassCardView, toLessonRowView } from '~/lib/card-view'
import { api } from '~/server/api-client'

export const HOME_LIMITS = { newArrivals: 8, closeToStarts: 5, closeToStartsByClass: 8, articles: 3 } as const

/**
 * Everything the top page lists, in one round trip: new classes, the next lessons, classes by their next
 * lesson, the category master list and the latest magazine articles. A list the API cannot give is empty
 * (public calls log and return nothing, spec §8), so the rest of the page still shows. Cards and rows carry only
 * what they show (app/lib/card-view.ts).
 */
export const getHomeData = createServerFn({ method: 'GET' }).handler(async () => {
  const [newArrivals, closeToStarts, closeToStartsByClass, categories, magazine] = await Promise.all([
    api.listNewArrivalsByClass(HOME_LIMITS.newArrivals),
    api.listCloseToStarts(HOME_LIMITS.closeToStarts),
    api.listCloseToStartsByClass(HOME_LIMITS.closeToStartsByClass),
    api.getMaster('categories'),
    api.listMagazineArticles({}),
  ])
  return {
    newArrivals: (newArrivals ?? []).map(toClassCardView),
    closeToStarts: (closeToStarts ?? []).map(toLessonRowView),
    closeToStartsByClass: (closeToStartsByClass ?? []).map(toClassCardView),
    categories: categories ?? [],
    articles: (magazine?.items ?? []).slice(0, HOME_LIMITS.articles),
  }
})
