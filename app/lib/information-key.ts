/**
 * /information lists two kinds of notices: the operator's (notice) and those of reserved classes (class).
 * Their ids overlap, so a page key carries the kind: `notice-12`, `class-34`.
 */
export type InformationKind = 'notice' | 'class'

export function informationKey(kind: InformationKind, id: number): string {
  return `${kind}-${id}`
}

export function parseInformationKey(key: unknown): { kind: InformationKind; id: number } | undefined {
  if (typeof key !== 'string') return undefined
  const m = /^(notice|class)-([1-9]\d{0,8})$/.exec(key)
  if (!m) return undefined
  return { kind: m[1] as InformationKind, id: Number(m[2]) }
}
