/**
 * The `updated_at` a save writes when `updated_at` is what a stale form is checked against (0044): the clock's time,
 * but always after the one it replaces. Two saves in the same millisecond (or a clock that stands still, or steps
 * back) would otherwise leave it unchanged, and a form opened before the first would pass the check.
 */
export function nextEditVersion(now: Date, previous: Date): Date {
  return new Date(Math.max(now.getTime(), previous.getTime() + 1))
}
