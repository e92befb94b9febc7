import { describe, expect, it } from 'vitest'
import { createLocalEventBus } from './events'

/** Resolves with the next payload a subscriber gets (no fixed sleeps). */
function nextMessage() {
  let got!: (payload: string) => void
  const message = new Promise<string>((resolve) => {
    got = resolve
  })
  return { message, handler: (payload: string) => got(payload) }
}

describe('in-process event bus (embedded database)', () => {
  it('delivers to every bus of the process, the publisher included, after publish returns', async () => {
    const a = createLocalEventBus()
    const b = createLocalEventBus()
    const onA = nextMessage()
    const onB = nextMessage()
    let ready = 0
    await a.subscribe('search_invalidate', onA.handler, { onReady: () => ready++ })
    await b.subscribe('search_invalidate', onB.handler)
    expect(ready).toBe(1)
    let delivered = false
    void onB.message.then(() => {
      delivered = true
    })
    await a.publish('search_invalidate', '/v1/teachers/class_works/1')
    expect(delivered).toBe(false) // asynchronous, like NOTIFY
    expect(await onA.message).toBe('/v1/teachers/class_works/1')
    expect(await onB.message).toBe('/v1/teachers/class_works/1')
    await a.close()
    await b.close()
  })

  it('keeps channels apart; unsubscribe and close stop delivery; a failing handler hurts no one', async () => {
    const bus = createLocalEventBus()
    const seen: string[] = []
    const unsubscribe = await bus.subscribe('one', (p) => seen.push(`one:${p}`))
    await bus.subscribe('one', () => {
      throw new Error('a broken subscriber')
    })
    await bus.subscribe('two', (p) => seen.push(`two:${p}`))
    const last = nextMessage()
    await bus.subscribe('two', last.handler)
    await bus.publish('one', 'x')
    await bus.publish('two', 'y')
    await last.message
    expect(seen).toEqual(['one:x', 'two:y'])
    await unsubscribe()
    const again = nextMessage()
    await bus.subscribe('two', again.handler)
    await bus.publish('one', 'z')
    await bus.publish('two', 'w')
    await again.message
    expect(seen).toEqual(['one:x', 'two:y', 'two:w'])
    await bus.close()
  })

  it('refuses channel names that are not identifiers and oversized payloads', async () => {
    const bus = createLocalEventBus()
    await expect(bus.publish('bad"; drop table x; --')).rejects.toThrow(TypeError)
    await expect(bus.subscribe('Upper', () => {})).rejects.toThrow(TypeError)
    await expect(bus.publish('ok', 'x'.repeat(8000))).rejects.toThrow(RangeError)
    await bus.close()
  })
})
