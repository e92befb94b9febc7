/**
 * The server's clock, read on this device: the server's time when it answered (`serverNow`) plus the time that
 * has passed on this device since the answer arrived (`receivedAt`, a query's dataUpdatedAt). A device whose clock
 * is minutes off still judges holds, starts and ends as the server does; a clock set back meanwhile adds nothing.
 */
export function serverClockAt(serverNow: string, receivedAt: number, deviceNow: number): number {
  return Date.parse(serverNow) + Math.max(0, deviceNow - receivedAt)
}
