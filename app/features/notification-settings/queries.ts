import { queryOptions } from '@tanstack/react-query'
import { getNotificationSettings, getUnsubscribeTarget } from './notification-settings.functions'

export const notificationSettingsQuery = () =>
  queryOptions({ queryKey: ['notification-settings'], queryFn: () => getNotificationSettings() })

export const unsubscribeTargetQuery = (token: string) =>
  queryOptions({
    queryKey: ['unsubscribe', token],
    queryFn: () => getUnsubscribeTarget({ data: { token } }),
    staleTime: Number.POSITIVE_INFINITY,
  })
