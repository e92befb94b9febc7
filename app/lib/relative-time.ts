import {
  differenceInDays,
  differenceInHours,
  differenceInMinutes,
  differenceInMonths,
  differenceInYears,
} from 'date-fns'

/**
 * Japanese relative time of a past moment (spec §9): years, months, days, hours, minutes, or 'たった今'.
 * Moments in the future (clock skew) read as 'たった今' rather than a negative number.
 */
export function relativeTimeJa(date: Date | string | number, now: Date | number = Date.now()): string {
  const then = new Date(date)
  const years = differenceInYears(now, then)
  if (years >= 1) return `${years}年前`
  const months = differenceInMonths(now, then)
  if (months >= 1) return `${months}ヶ月前`
  const days = differenceInDays(now, then)
  if (days >= 1) return `${days}日前`
  const hours = differenceInHours(now, then)
  if (hours >= 1) return `${hours}時間前`
  const minutes = differenceInMinutes(now, then)
  if (minutes >= 1) return `${minutes}分前`
  return 'たった今'
}
