/**
 * Short labels for class cards. Target grades come sorted by the master list's order, whose ids are
 * consecutive; a run of three or more consecutive grades reads as a range (小学1年〜小学6年).
 */
export function gradesLabel(grades: readonly { id: number; name: string }[], max = 3): string {
  if (grades.length === 0) return '指定なし'
  const consecutive = grades.every((g, i) => i === 0 || g.id === grades[i - 1]!.id + 1)
  if (grades.length >= 3 && consecutive) return `${grades[0]!.name}〜${grades[grades.length - 1]!.name}`
  const shown = grades.slice(0, max).map((g) => g.name)
  return grades.length > max ? `${shown.join('・')} ほか${grades.length - max}` : shown.join('・')
}

/** 残り3席 / 満席 */
export function seatsLabel(left: number): string {
  return left <= 0 ? '満席' : `残り${left}席`
}

/** 60分 / 1時間30分 */
export function durationLabel(minutes: number): string {
  if (minutes < 60) return `${minutes}分`
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  return m ? `${h}時間${m}分` : `${h}時間`
}

/**
 * The warning before booking someone into a class for other grades, or null when the class has no target grades,
 * the attendee's grade is unknown, or it is one of them. The booking stays possible once the member confirms.
 */
export function gradeMismatch(
  targets: readonly { id: number; name: string }[],
  attendeeGrade: { id: number; name: string } | null,
): string | null {
  if (targets.length === 0 || !attendeeGrade || targets.some((g) => g.id === attendeeGrade.id)) return null
  return `このクラスの対象学年は「${gradesLabel(targets)}」です（受講する人：${attendeeGrade.name}）。`
}
