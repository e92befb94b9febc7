import type { Message } from '~/contract/v1/rooms'

/**
 * The messages of the polled latest page that left it when it was polled again (new ones pushed them out, oldest
 * first). They belong to the loaded history, or a gap would open between it and the page. Nothing when the two
 * pages do not overlap (too many new messages at once): the history then stays as it was.
 */
export function slidOut(before: readonly Message[], latest: readonly Message[]): Message[] {
  const first = latest[0]
  if (!first) return []
  const cut = before.findIndex((m) => m.id === first.id)
  return cut <= 0 ? [] : before.slice(0, cut)
}

/**
 * What a room shows above the latest page: the loaded history older than the page's first message. The page covers
 * everything from there on and is fresher (a message an operator removed since is gone from it), so it wins there.
 */
export function earlierThan(older: readonly Message[], latest: readonly Message[]): Message[] {
  const first = latest[0]
  if (!first) return [...older]
  const from = Date.parse(first.created_at)
  const before = (m: Message) => {
    const at = Date.parse(m.created_at)
    return at < from || (at === from && m.id < first.id)
  }
  return older.filter(before)
}
