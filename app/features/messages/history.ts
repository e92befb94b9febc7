import type { Message } from '~/contract/v1/rooms'

/**
 * The messages of the polled latest page that left it when it was polled again (new ones pushed them out, oldest
 * first). They belong to the loaded history, or a gap would open between it and the page. null when the two pages
 * no longer meet (more new messages than a page while the tab slept): the history cannot be joined to the page.
 */
export function slidOut(before: readonly Message[], latest: readonly Message[]): Message[] | null {
  const first = latest[0]
  if (!first || before.length === 0) return []
  const cut = before.findIndex((m) => m.id === first.id)
  if (cut === -1) return latest.some((m) => before.some((b) => b.id === m.id)) ? [] : null
  return before.slice(0, cut)
}

/**
 * What a room shows above the latest page: the loaded history older than the page's first message. The page covers
 * everything from there on and is fresher (a message an operator removed since is gone from it), so it wins there.
 */
export function earlierThan(older: readonly Message[], latest: readonly Message[]): Message[] {
  const first = latest[0]
  if (!first) return [...older]
  const from = Date.parse(first.created_at)
  // A held message an operator released is dated anew: it is in the page now, not also where it was.
  const fresh = new Set(latest.map((m) => m.id))
  const before = (m: Message) => {
    const at = Date.parse(m.created_at)
    return !fresh.has(m.id) && (at < from || (at === from && m.id < first.id))
  }
  // Once each, the later copy winning: one can slide out of the page twice (an operator hid a message in it, which
  // pulled an older one back in), or come back from paging after a release.
  const byId = new Map<number, Message>()
  for (const m of older) if (before(m)) byId.set(m.id, m)
  return [...byId.values()].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.id - b.id)
}
