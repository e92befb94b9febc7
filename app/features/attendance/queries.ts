import { queryOptions } from '@tanstack/react-query'
import { getAttendance } from './attendance.functions'

/** Refetched every minute so that the meeting link appears 15 minutes before the start without a reload. */
export const attendanceQuery = () =>
  queryOptions({ queryKey: ['attendance'], queryFn: () => getAttendance(), refetchInterval: 60_000 })
