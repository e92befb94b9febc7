const HOUR_MS = 3_600_000

/** How long a report has waited at `nowMs` (the server's clock): hours within its first day, then days. */
export function reportAge(createdAt: string, nowMs: number): string {
  const hours = Math.floor((nowMs - Date.parse(createdAt)) / HOUR_MS)
  return hours < 24 ? `${Math.max(hours, 0)}時間前` : `${Math.floor(hours / 24)}日前`
}
