import { useEffect, useState } from 'react'
import { serverClockAt } from '~/lib/server-clock'

/**
 * The server's clock (serverClockAt) as state, read again every `tickMs` and whenever a new answer arrives, so that
 * what a page decides by time (a lesson started, a report's age) follows the server's time while it stays open,
 * whatever the device's clock says (docs/decisions/0055). Before any answer (`serverNow` undefined): the device's.
 */
export function useServerClock(serverNow: string | undefined, receivedAt: number, tickMs: number): number {
  const clock = () => (serverNow ? serverClockAt(serverNow, receivedAt, Date.now()) : Date.now())
  const [now, setNow] = useState(clock)
  // biome-ignore lint/correctness/useExhaustiveDependencies: clock reads serverNow and receivedAt, listed here.
  useEffect(() => {
    setNow(clock())
    const timer = setInterval(() => setNow(clock()), tickMs)
    return () => clearInterval(timer)
  }, [serverNow, receivedAt, tickMs])
  return now
}
