import type { getHomeData } from './home.functions'

type HomeData = Awaited<ReturnType<typeof getHomeData>>

/** The classes the home page shows (for their furigana). */
export function homeClassIds(home: HomeData): number[] {
  return [
    ...home.newArrivals.map((c) => c.id),
    ...home.closeToStarts.map((s) => s.class_work.id),
    ...home.closeToStartsByClass.map((c) => c.id),
  ]
}
