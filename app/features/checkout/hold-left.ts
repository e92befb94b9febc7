/**
 * How long the seat is still held, in milliseconds, on the device's clock at `deviceNow`. Counted from the server's
 * clock when it answered (`serverNow`, with `holdExpiresAt`) plus the time passed on this device since the answer
 * arrived (`receivedAt`): a device whose clock is minutes off still shows the server's countdown, not its own.
 */
export function holdLeftMs(
  hold: { holdExpiresAt: string; serverNow: string; receivedAt: number },
  deviceNow: number,
): number {
  const atAnswer = Date.parse(hold.holdExpiresAt) - Date.parse(hold.serverNow)
  // A clock set back meanwhile does not add time.
  const passed = Math.max(0, deviceNow - hold.receivedAt)
  return Math.max(0, atAnswer - passed)
}
