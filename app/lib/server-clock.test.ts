import { describe, expect, it } from 'vitest'
import { serverClockAt } from './server-clock'

describe('serverClockAt', () => {
  const serverNow = '2026-12-05T10:00:00.000Z'
  it('is the server time plus what passed on the device, whatever its clock says', () => {
    for (const skew of [15 * 60_000, -45 * 60_000]) {
      const receivedAt = Date.parse(serverNow) + skew
      expect(serverClockAt(serverNow, receivedAt, receivedAt)).toBe(Date.parse(serverNow))
      expect(serverClockAt(serverNow, receivedAt, receivedAt + 90_000)).toBe(Date.parse(serverNow) + 90_000)
    }
  })
  it('never runs backwards when the device clock is set back', () => {
    expect(serverClockAt(serverNow, 5_000_000, 4_000_000)).toBe(Date.parse(serverNow))
  })
})
