import type { SalesLine } from '../contract/v1/sales'

/**
 * What a teacher reads of a purchase's state (sales list, CSV, receipt): a cancelled seat says whether its money
 * went back — 返金済み once the provider paid it, 返金手続き中 until then — and nothing about money when none was paid.
 */
export function salesStatusLabel(line: Pick<SalesLine, 'status' | 'refund'>, reserved = '予約済み'): string {
  if (line.status === 'reserved') return reserved
  const what = line.status === 'canceled_by_user' ? 'キャンセル' : '休講'
  if (line.refund === 'refunded') return `${what}（返金済み）`
  if (line.refund === 'pending') return `${what}（返金手続き中）`
  return what
}
