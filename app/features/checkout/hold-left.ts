import { serverClockAt } from '~/lib/server-clock'

/**
 * How long the seat is still held, in milliseconds, at `deviceNow`: counted on the server's clock (serverClockAt),
 * so that a device whose clock is minutes off still shows the server's countdown, not its own.
 */
export function holdLeftMs(
  hold: { holdExpiresAt: string; serverNow: string; receivedAt: number },
  deviceNow: number,
): number {
  return Math.max(
    0,
    Date.parse(hold.holdExpiresAt) - serverClockAt(hold.serverNow, hold.receivedAt, deviceNow),
  )
}
