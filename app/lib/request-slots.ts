/** Weekdays and times of day (Asia/Tokyo), with their labels: リクエスト開催 and search by when (issue 16). No zod here. */
export const WEEKDAYS = {
  mon: '月',
  tue: '火',
  wed: '水',
  thu: '木',
  fri: '金',
  sat: '土',
  sun: '日',
} as const
export type Weekday = keyof typeof WEEKDAYS
export const DAY_TIMES = { morning: '午前', afternoon: '午後', evening: '夕方・夜' } as const
export type DayTime = keyof typeof DAY_TIMES

/** 「土・日の午前」 for a request's wishes. */
export function wishLabel(weekdays: readonly string[], times: readonly string[]): string {
  const days = (Object.keys(WEEKDAYS) as Weekday[])
    .filter((d) => weekdays.includes(d))
    .map((d) => WEEKDAYS[d])
  const parts = (Object.keys(DAY_TIMES) as DayTime[])
    .filter((t) => times.includes(t))
    .map((t) => DAY_TIMES[t])
  return `${days.join('・')}曜の${parts.join('・')}`
}
