import { describe, expect, it } from 'vitest'
import { createLocalEventBus } from '../db/events'
import {
  decodeMemberEvent,
  encodeMemberEvents,
  MAX_MEMBER_EVENT_BYTES,
  MEMBER_EVENTS_CHANNEL,
  publishMemberEventOn,
} from './live-events.server'

describe('member event payloads', () => {
  it('encodes ids, type and data in one small payload, and decodes it back', () => {
    const [payload, ...rest] = encodeMemberEvents([3, 1, 3], 'message', { roomId: 7 })
    expect(rest).toEqual([])
    expect(JSON.parse(payload!)).toEqual({ t: 'message', d: { roomId: 7 }, u: [3, 1] })
    expect(decodeMemberEvent(payload!)).toEqual({ u: [3, 1], t: 'message', d: { roomId: 7 } })
    expect(decodeMemberEvent(encodeMemberEvents([5], 'notice')[0]!)).toEqual({ u: [5], t: 'notice' })
  })

  it('splits a large list of members over payloads that each stay under the bus limit', () => {
    const ids = Array.from({ length: 5_000 }, (_, i) => 1_000_000 + i)
    const payloads = encodeMemberEvents(ids, 'announcement', { classWorkId: 12 })
    expect(payloads.length).toBeGreaterThan(1)
    const seen: number[] = []
    for (const p of payloads) {
      expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_MEMBER_EVENT_BYTES)
      const event = decodeMemberEvent(p)!
      expect(event.t).toBe('announcement')
      expect(event.d).toEqual({ classWorkId: 12 })
      seen.push(...event.u)
    }
    expect(seen).toEqual(ids)
  })

  it('drops invalid ids, publishes nothing for nobody, and refuses oversized data or unknown types', () => {
    expect(encodeMemberEvents([], 'message')).toEqual([])
    expect(encodeMemberEvents([0, -1, 1.5, Number.NaN], 'message')).toEqual([])
    expect(decodeMemberEvent(encodeMemberEvents([0, 4], 'reservation')[0]!)?.u).toEqual([4])
    expect(() => encodeMemberEvents([1], 'message', { text: 'あ'.repeat(3_000) })).toThrow(RangeError)
    expect(() => encodeMemberEvents([1], 'chat' as never)).toThrow(TypeError)
  })

  it('ignores payloads it did not write', () => {
    for (const junk of [
      '',
      'x',
      '[]',
      'null',
      '{"t":"message"}',
      '{"t":"other","u":[1]}',
      '{"t":"notice","u":[]}',
    ])
      expect(decodeMemberEvent(junk)).toBeUndefined()
    expect(decodeMemberEvent('{"t":"notice","u":[1,"2"],"d":[1]}')).toEqual({ u: [1], t: 'notice' })
  })

  it('publishes on the member_events channel of the bus', async () => {
    const bus = createLocalEventBus()
    const got: string[] = []
    const unsubscribe = await bus.subscribe(MEMBER_EVENTS_CHANNEL, (p) => got.push(p))
    await publishMemberEventOn(bus, [9], 'reservation')
    await new Promise((resolve) => setImmediate(resolve))
    expect(got.map(decodeMemberEvent)).toEqual([{ u: [9], t: 'reservation' }])
    await unsubscribe()
    await bus.close()
  })
})
