import '@tanstack/react-start/server-only'
import type { MiddlewareHandler } from 'hono'
import { type EventBus, getEventBus } from '../db/events'
import { RequestTimedOutError } from './errors'

/** Channel on which "class search results may have changed" goes to every instance (payload: the write's path). */
export const SEARCH_INVALIDATE_CHANNEL = 'search_invalidate'

/**
 * Writes that cannot change a class search's results (messages, notices, announcements, favorites, follows,
 * learners, furigana mode, mail settings, invitation codes, receipts' names, bank accounts) and the search itself
 * (a POST that reads): they keep search caches. Every other write empties them.
 */
export const KEEPS_SEARCH_RESULTS =
  /^\/v1\/(rooms|notices|class_announcements|users\/(favorites|followings|me\/(learners|furigana)|calendar|notification_settings)|org_users\/invitation_code|teachers\/bank_account)(\/|$)|^\/v1\/class_works\/(search|\d+\/requests)$|^\/v1\/payments\/\d+\/receipt\/name$/

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** True when a request with this method and path may change what a class search answers. */
export function changesSearchResults(method: string, path: string): boolean {
  return !READS.has(method.toUpperCase()) && !KEEPS_SEARCH_RESULTS.test(path)
}

/**
 * After every successful /v1 write that may change search results — whoever sent it, the BFF or an API
 * client — tells every instance to empty its search cache. Sent before the response leaves, so a client that
 * reads again through another instance after the answer does not see the old results (within delivery time).
 * `clearOwn` empties this instance's own cache at once (the bus's message comes back to it later).
 * A failed publish is logged, never turned into a failed write. A write the request timeout answered 503 for goes
 * on, and may commit later: its handler's end is awaited here all the same, and unless it failed, the message goes
 * then (an extra one for a write that did not commit only empties caches).
 */
export function searchInvalidation(
  bus: () => Promise<EventBus> = getEventBus,
  clearOwn?: () => void,
  log: Pick<Console, 'error'> = console,
): MiddlewareHandler {
  return async (c, next) => {
    await next()
    // Answered 503 by the timeout and finished since: a failure the handler threw would have replaced the error.
    const finishedLate = c.error instanceof RequestTimedOutError
    if ((c.res.status >= 400 && !finishedLate) || !changesSearchResults(c.req.method, c.req.path)) return
    clearOwn?.()
    try {
      await (await bus()).publish(SEARCH_INVALIDATE_CHANNEL, c.req.path.slice(0, 200))
    } catch (err) {
      log.error('[api] could not publish search_invalidate:', err instanceof Error ? err.message : err)
    }
  }
}

/** After a failed subscription, a search-result cache stays off for this long before the bus is tried again. */
export const SEARCH_BUS_RETRY_MS = 5_000

export interface SearchInvalidationListener {
  /** Subscribed and hearing every message: a cache may answer. */
  listening(): boolean
  /**
   * Subscribes if not yet (at most one attempt at a time, none within SEARCH_BUS_RETRY_MS of a failure); resolves
   * true once subscribed, false when the attempt failed or waits for its retry. Once subscribed, the bus itself
   * subscribes again after a drop (onLost … onReady).
   */
  ensure(): Promise<boolean>
}

/**
 * One subscription to `search_invalidate` for a cache of search results (the BFF client's, the API's kept cards):
 * `onInvalid` runs on every message, when the subscription is ready and when it is lost (messages may have been
 * missed meanwhile). `run` wraps the subscribing call (the BFF runs it outside the request that asked first).
 */
export function searchInvalidationListener(
  events: () => Promise<EventBus>,
  onInvalid: () => void,
  options: {
    onFailed: (err: unknown) => void
    run?: (subscribe: () => Promise<boolean>) => Promise<boolean>
  },
): SearchInvalidationListener {
  let listening = false
  let subscribed = false
  let subscribing: Promise<boolean> | undefined
  let failedAt = Number.NEGATIVE_INFINITY
  const run = options.run ?? ((subscribe) => subscribe())
  return {
    listening: () => listening,
    ensure() {
      if (listening) return Promise.resolve(true)
      if (subscribed || Date.now() - failedAt < SEARCH_BUS_RETRY_MS) return Promise.resolve(false)
      subscribing ??= run(() =>
        events()
          .then((bus) =>
            bus.subscribe(SEARCH_INVALIDATE_CHANNEL, onInvalid, {
              onReady: () => {
                onInvalid()
                listening = true
              },
              onLost: () => {
                listening = false
                onInvalid()
              },
            }),
          )
          .then(
            () => {
              subscribed = true
              return true
            },
            (err) => {
              failedAt = Date.now()
              options.onFailed(err)
              return false
            },
          )
          .finally(() => {
            subscribing = undefined
          }),
      )
      return subscribing
    },
  }
}
