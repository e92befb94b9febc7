import { queryOptions } from '@tanstack/react-query'
import { getCalendarUrl, getMyPage } from './mypage.functions'

export const myPageQuery = () => queryOptions({ queryKey: ['mypage'], queryFn: () => getMyPage() })

export const calendarUrlQuery = () =>
  queryOptions({ queryKey: ['calendar-url'], queryFn: () => getCalendarUrl() })
