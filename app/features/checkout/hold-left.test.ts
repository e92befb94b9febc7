import { describe, expect, it } from 'vitest'
import { holdLeftMs } from './hold-left'

const hold = {
  holdExpiresAt: '2026-12-05T10:10:00.000Z',
  serverNow: '2026-12-05T10:00:00.000Z',
}

describe('holdLeftMs', () => {
  it('counts from the server clock, whatever the device clock says', () => {
    // A device 7 minutes fast, and one 30 minutes slow: both show the 10 minutes the server gave.
    for (const skew of [7 * 60_000, -30 * 60_000]) {
      const receivedAt = Date.parse(hold.serverNow) + skew
      expect(holdLeftMs({ ...hold, receivedAt }, receivedAt)).toBe(10 * 60_000)
      expect(holdLeftMs({ ...hold, receivedAt }, receivedAt + 61_000)).toBe(10 * 60_000 - 61_000)
    }
  })
  it('stops at zero', () => {
    const receivedAt = 1_000_000
    expect(holdLeftMs({ ...hold, receivedAt }, receivedAt + 11 * 60_000)).toBe(0)
    expect(holdLeftMs({ ...hold, serverNow: '2026-12-05T10:11:00.000Z', receivedAt }, receivedAt)).toBe(0)
  })
  it('gives no extra time for a device clock set back after the answer', () => {
    const receivedAt = 1_000_000
    expect(holdLeftMs({ ...hold, receivedAt }, receivedAt - 5 * 60_000)).toBe(10 * 60_000)
  })
})
