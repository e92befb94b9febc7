import { vi } from 'vitest'
import type { EventBus, SubscribeHooks } from '../../app/db/events'

/**
 * An event bus a test drives by hand: it records what is published and which channels are subscribed, and
 * delivers a message, loses the subscription or makes it ready again when told. `refuse` makes every subscription
 * fail, as with the database away.
 */
export function fakeBus(options: { refuse?: boolean } = {}) {
  const published: string[] = []
  let handler: ((payload: string) => void) | undefined
  let hooks: SubscribeHooks = {}
  const subscribed = vi.fn<(channel: string) => void>()
  const bus: EventBus = {
    kind: 'postgres',
    publish: async (channel, payload = '') => {
      published.push(`${channel} ${payload}`)
    },
    subscribe: async (channel, h, k = {}) => {
      subscribed(channel)
      if (options.refuse) throw new Error('connect ECONNREFUSED')
      handler = h
      hooks = k
      k.onReady?.()
      return async () => {}
    },
    close: async () => {},
  }
  return {
    bus,
    events: async () => bus,
    published,
    subscribed,
    subscriptions: () => subscribed.mock.calls.length,
    deliver: (payload = '/v1/teachers/class_works/1') => handler?.(payload),
    lose: () => hooks.onLost?.(),
    ready: () => hooks.onReady?.(),
  }
}
