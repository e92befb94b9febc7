/**
 * Age in whole years on `now`, by Tokyo dates (a birthday counts from its Tokyo morning), wherever the code runs:
 * the API's age check and the operator's screen, on a device in any time zone, give the same answer.
 */
export function ageOn(birthDate: string, now: Date): number {
  const today = new Date(now.getTime() + 9 * 3600_000).toISOString().slice(0, 10)
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number]
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number]
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0)
}
