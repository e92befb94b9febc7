import { queryOptions } from '@tanstack/react-query'
import { getInformation, getInformationItem } from './information.functions'

export const informationQuery = () =>
  queryOptions({ queryKey: ['information'], queryFn: () => getInformation() })

export const informationItemQuery = (key: string) =>
  queryOptions({ queryKey: ['information', key], queryFn: () => getInformationItem({ data: key }) })
