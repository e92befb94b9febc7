import '@tanstack/react-start/server-only'
import { LRUCache } from 'lru-cache'
import type { ClassWorkCard } from '../contract/v1/class-works'
import type { EventBus } from '../db/events'
import { searchInvalidationListener } from './search-invalidation'

/**
 * How long a card is kept at most. Favorites and follows empty no cache (search-invalidation.ts), so a card's
 * favorite count may lag this long, as the BFF's cached searches already do (SEARCH_RESULTS_TTL_MS).
 */
export const CARD_CACHE_TTL_MS = 10_000

/** Cards kept per database: every class of a large catalogue that searches show often enough. */
const MAX_CARDS = 5_000

/**
 * The class cards of searches, kept by class id between searches (docs/decisions/0054). Distinct searches (another
 * word, another price cap) mostly list the same classes; the cards statement (its joins and the next lesson of each
 * class) was the largest part of a search's database work. A card is kept until
 * - any write that can change search results, on any instance: the `search_invalidate` bus empties every
 *   instance's cache, and a /v1 write empties its own instance's at once (clear());
 * - its next lesson starts (a card shows the next lesson not started yet), or CARD_CACHE_TTL_MS pass.
 * Kept only while subscribed to the bus: without it, cards come from the database. A read that began before an
 * invalidation is not kept (the generation changed). Kept cards are shared: treat them as read-only.
 */
export interface CardCache {
  /**
   * The cards of `ids` in their order: kept ones from memory, the others from `load` (one call for all of them,
   * which skips ids it does not find); ids not found are skipped.
   */
  cards(
    db: object,
    ids: number[],
    now: Date,
    load: (ids: number[]) => Promise<ClassWorkCard[]>,
  ): Promise<ClassWorkCard[]>
  /** Empties every database's cache (a write on this instance; the bus tells the others). */
  clear(): void
}

interface Kept {
  card: ClassWorkCard
  /** The card is right while the search's `now` is at most this (its next lesson's start), in ms. */
  until: number
  /** Wall-clock ms after which it is let go (CARD_CACHE_TTL_MS). */
  expires: number
}

export function createCardCache(
  events: () => Promise<EventBus>,
  options: { ttlMs?: number; log?: Pick<Console, 'warn'> } = {},
): CardCache {
  const ttl = options.ttlMs ?? CARD_CACHE_TTL_MS
  const log = options.log ?? console
  // One cache per database (tests run several); emptied lazily by generation, as a WeakMap cannot be walked.
  const caches = new WeakMap<object, { generation: number; kept: LRUCache<number, Kept> }>()
  let generation = 0

  function clear() {
    generation++
  }

  const bus = searchInvalidationListener(events, clear, {
    onFailed: (err) =>
      log.warn('[api] card cache off: no invalidation bus:', err instanceof Error ? err.message : err),
  })

  function cacheOf(db: object) {
    let entry = caches.get(db)
    if (!entry) {
      entry = { generation, kept: new LRUCache({ max: MAX_CARDS }) }
      caches.set(db, entry)
    } else if (entry.generation !== generation) {
      entry.kept.clear()
      entry.generation = generation
    }
    return entry.kept
  }

  return {
    clear,
    async cards(db, ids, now, load) {
      if (!bus.listening()) {
        // Not waited for: this search reads its cards from the database meanwhile.
        void bus.ensure()
        return load(ids)
      }
      const kept = cacheOf(db)
      const at = now.getTime()
      const wall = Date.now()
      const found = new Map<number, ClassWorkCard>()
      const missing: number[] = []
      for (const id of ids) {
        const hit = kept.get(id)
        if (hit && at <= hit.until && wall < hit.expires) found.set(id, hit.card)
        else missing.push(id)
      }
      if (missing.length > 0) {
        const read = generation
        const loaded = await load(missing)
        // Kept only when nothing was invalidated while it was read: it may predate that write.
        const keep = bus.listening() && read === generation
        for (const card of loaded) {
          found.set(card.id, card)
          if (keep)
            kept.set(card.id, {
              card,
              until: card.next_schedule
                ? Date.parse(card.next_schedule.started_at)
                : Number.POSITIVE_INFINITY,
              expires: wall + ttl,
            })
        }
      }
      return ids.flatMap((id) => {
        const card = found.get(id)
        return card ? [card] : []
      })
    },
  }
}
