import { queryOptions } from '@tanstack/react-query'
import { getOrganizationForEdit, getOrganizationPage } from './organization.functions'

export const organizationPageQuery = (month: string | undefined) =>
  queryOptions({
    queryKey: ['organization', 'page', month ?? 'current'],
    queryFn: () => getOrganizationPage({ data: { month } }),
  })

export const organizationEditQuery = () =>
  queryOptions({ queryKey: ['organization', 'edit'], queryFn: () => getOrganizationForEdit() })
